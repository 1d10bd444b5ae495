/**
 * Issue 38, class 7, under the real CLI on both faces: `pulumi preview` of a program that needs
 * no read (one guardrail to create) fails before any write with a wrong key and with an
 * unreachable URL, naming the setting and never the key; `guardrails:skipCredentialsCheck` lets
 * the offline preview pass.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Program, useProgram } from "./harness";

const WRONG_KEY = "sk-wrong-e2e-5f0c2a9d7b31e8640aa1";
const PLUGIN_DIR = join(__dirname, "../../src/native/bin");

const DYNAMIC = `
import { Guardrail } from "pulumi-guardrails";
export const id = new Guardrail("creds", { name: "Creds", limitUsd: 1, resetInterval: "daily" }).id;
`;

const NATIVE = `
const pulumi = require("@pulumi/pulumi");
new pulumi.CustomResource("guardrails:index:Guardrail", "creds", { name: "Creds", limitUsd: 1, resetInterval: "daily" });
`;

/**
 * A local URL that takes no connection. Not a port bound and released: with e2e files in parallel,
 * another file's emulator could be listening there by the time the preview reads it (it happened
 * in CI). Nothing here listens on port 1: every server binds an ephemeral port.
 */
const CLOSED_URL = "http://127.0.0.1:1";

/** The three previews of the class, on the program `p` already holds. */
async function previewsFailBeforeAnyWrite(p: Program): Promise<void> {
  const config = (...args: string[]) => p.pulumi(["config", ...args], { check: true });
  await p.clearLog();

  await config("set", "--secret", "guardrails:apiKey", WRONG_KEY);
  const wrongKey = await p.preview();
  expect(wrongKey.code).not.toBe(0);
  expect(wrongKey.output).toContain("pulumi-guardrails checked the key and URL before any change, and it failed");
  expect(wrongKey.output).toContain("The service refused the API key from stack config guardrails:apiKey");
  expect(wrongKey.output).toContain("guardrails:skipCredentialsCheck");
  expect(wrongKey.output).not.toContain(WRONG_KEY);
  expect(wrongKey.output).not.toMatch(/^\s+at /m);
  await config("set", "--secret", "guardrails:apiKey", p.apiKey);

  const url = CLOSED_URL;
  await config("set", "guardrails:baseUrl", url);
  await config("set", "guardrails:maxAttempts", "1");
  const unreachable = await p.preview();
  expect(unreachable.code).not.toBe(0);
  expect(unreachable.output).toContain(`The service URL "${url}" comes from stack config guardrails:baseUrl`);
  expect(unreachable.output).not.toContain(p.apiKey);

  // Offline: the opt-out skips the read, and nothing in this preview needs the service.
  await config("set", "guardrails:skipCredentialsCheck", "true");
  const offline = await p.preview();
  expect(offline.code, offline.output).toBe(0);
  expect(offline.output).toMatch(/Guardrail: \(create\)/);

  for (const k of ["skipCredentialsCheck", "maxAttempts"]) await config("rm", `guardrails:${k}`);
  await config("set", "guardrails:baseUrl", p.emulator.url);
  const log = await p.log();
  expect(log.writes).toBe(0);
  expect(log.entries.map((e) => `${e.method} ${e.operation}`)).toEqual(["GET listGuardrails"]);
}

describe("a preview checks the key and URL (dynamic face)", () => {
  const p = useProgram("creds-dynamic", { create: { keyVia: "config" } });
  it("a wrong key and an unreachable URL fail preview before any write; the opt-out passes offline", async () => {
    p.write(DYNAMIC);
    await previewsFailBeforeAnyWrite(p);
  });
});

describe("a preview checks the key and URL (native face)", () => {
  const p = useProgram("creds-native", { create: { keyVia: "config" } });
  it("a wrong key and an unreachable URL fail preview before any write; the opt-out passes offline", async () => {
    Object.assign(p.env, {
      PATH: `${PLUGIN_DIR}:${p.env.PATH}`,
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    });
    writeFileSync(join(p.dir, "Pulumi.yaml"), "name: creds-native\nruntime: nodejs\n");
    writeFileSync(
      join(p.dir, "package.json"),
      JSON.stringify({ name: "creds-native", main: "index.js", private: true }),
    );
    writeFileSync(join(p.dir, "index.js"), NATIVE);
    await previewsFailBeforeAnyWrite(p);
  });
});
