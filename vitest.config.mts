import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The e2e suites drive the real pulumi CLI, which is CPU-heavy on a 2-core machine.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
