/**
 * The thin serialized provider, the way Pulumi stores it: serialized with
 * pulumi.runtime.serializeFunction from the packed and installed package, loaded in a fresh
 * node process, and used to create a guardrail against the emulator.
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { http, spawnEmulator, type SpawnedEmulator } from "../helpers/spawn-emulator";

const KEY = `serialization-key-${Date.now()}`;
let emu: SpawnedEmulator;
beforeAll(async () => {
  emu = await spawnEmulator(["--management-key", KEY]);
});
afterAll(() => emu.stop());

describe("serialized provider", () => {
  it.each(["guardrail", "memberAssignment", "keyAssignment"])(
    "%s: under 4 KB, no key, and works from a fresh process",
    async (kind) => {
      const { template } = inject("e2e");
      const serialize = `
      const pulumi = require("@pulumi/pulumi");
      const { shimFor } = require("pulumi-guardrails/internal");
      // Exactly what pulumi.dynamic.Resource does with its provider (dynamic/index.js).
      const provider = shimFor(${JSON.stringify(kind)});
      pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true })
        .then((s) => process.stdout.write(s.text));
    `;
      const text = execFileSync(process.execPath, ["-e", serialize], {
        cwd: template,
        encoding: "utf8",
        env: { ...process.env, GUARDRAILS_API_KEY: KEY },
      });
      expect(Buffer.byteLength(text)).toBeLessThan(4096);
      expect(text).not.toContain(KEY);
      expect(text).not.toMatch(/zod|undici|Agent/);
      if (kind !== "guardrail") return;

      const file = join(template, `serialized-${kind}.js`);
      writeFileSync(file, text);
      // A fresh process, as the dynamic-provider host: load the text, configure from "stack config", create.
      const use = `
      const provider = require(${JSON.stringify(file)}).handler();
      const config = { "guardrails:apiKey": ${JSON.stringify(KEY)}, "guardrails:baseUrl": ${JSON.stringify(emu.url)} };
      provider.configure({ config: { get: (k) => config[k], require: (k) => config[k] } })
        .then(() => provider.create({ name: "from-serialized", limitUsd: 3, resetInterval: "daily" }))
        .then((r) => process.stdout.write(JSON.stringify(r)));
    `;
      const created = JSON.parse(
        execFileSync(process.execPath, ["-e", use], {
          cwd: template,
          encoding: "utf8",
          env: { ...process.env, GUARDRAILS_API_KEY: "", GUARDRAILS_BASE_URL: "" },
        }),
      );
      const live = (await http(emu.api, KEY)("GET", `/guardrails/${created.id}`)).body.data;
      expect(live).toMatchObject({ name: "from-serialized", limit_usd: 3 });
      expect(JSON.stringify(created)).not.toContain(KEY);
    },
  );
});
