import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The e2e suites drive the real pulumi CLI, CPU-heavy on a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/{unit,emulator,conformance,provider}/**/*.test.ts"],
          setupFiles: ["test/helpers/private-journal.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          globalSetup: ["test/e2e/global-setup.ts"],
          testTimeout: 600_000,
          hookTimeout: 900_000,
        },
      },
    ],
  },
});
