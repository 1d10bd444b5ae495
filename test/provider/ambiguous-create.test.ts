/**
 * Ambiguous creates never guess. Two Guardrails with identical args, created at once by one
 * provider process (as `pulumi up` does), under injected faults: never one id for two
 * resources, and the service holds exactly the guardrails the creates returned.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { collect } from "../../src/core/client";
import { guardrail } from "../../src/dynamic/internal";
import { useProviderEmulator } from "../helpers/emulator";

beforeAll(() => {
  process.env.GUARDRAILS_JOURNAL_DIR = mkdtempSync(join(tmpdir(), "guardrails-journal-"));
});
const emu = useProviderEmulator({ "guardrails:maxAttempts": "5" }, { resetFaults: true });

const named = async (name: string) =>
  (await collect(emu.client().listGuardrails()))
    .filter((g) => g.name === name)
    .map((g) => g.id)
    .sort();

async function twins(name: string) {
  const args = { __provider: "s", name, limitUsd: 10, resetInterval: "weekly", allowedProviders: ["prov-1"] };
  return Promise.allSettled([guardrail.create({ ...args }), guardrail.create({ ...args })]);
}

describe("two identical guardrails created at once", () => {
  it("under 30% 5xx, over 20 seeds: never a shared id, and the service holds exactly what the creates returned", async () => {
    const summary: string[] = [];
    for (let seed = 1; seed <= 20; seed++) {
      const name = `twin-5xx-${seed}`;
      await emu.setFaults({ errorRate: 0.3, seed });
      const results = await twins(name);
      await emu.setFaults({ errorRate: 0 });
      const ids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
      expect(new Set(ids).size, `seed ${seed}: shared id`).toBe(ids.length);
      expect(await named(name), `seed ${seed}`).toEqual([...ids].sort());
      for (const r of results)
        if (r.status === "rejected")
          expect(String(r.reason), `seed ${seed}`).toMatch(/guardrail "twin-5xx-\d+": POST .*: HTTP 50\d/);
      summary.push(`${seed}:${ids.length}`);
    }
    const log = await emu.log();
    console.log(
      `seeds 1-20 (seed:created): ${summary.join(" ")}; 5xx injected: ${log.entries.filter((e) => e.fault === "server-error").length}`,
    );
  });

  it("a 429 is never ambiguous: the POST is made again without looking for candidates", async () => {
    await emu.setFaults({ rateLimitRate: 0.5, rateLimitBurst: 1, retryAfterSeconds: 0, seed: 3 });
    await emu.clearLog();
    const results = await twins("twin-429");
    await emu.setFaults({ rateLimitRate: 0 });
    const log = await emu.log();
    expect(log.entries.some((e) => e.status === 429)).toBe(true);
    expect(log.counts.listGuardrails ?? 0).toBe(0);
    const ids = results.map((r) => (r.status === "fulfilled" ? r.value.id : String(r.reason)));
    expect(new Set(ids).size).toBe(2);
    expect(await named("twin-429")).toEqual([...ids].sort());
  });

  it("under dropped answers, over 10 seeds: never a shared id; when it cannot tell, the create fails naming the candidates", async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const name = `twin-drop-${seed}`;
      await emu.setFaults({ dropAfterApplyRate: 0.5, seed });
      const results = await twins(name);
      await emu.setFaults({ dropAfterApplyRate: 0 });
      const ids = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.id] : []));
      expect(new Set(ids).size, `seed ${seed}`).toBe(ids.length);
      const live = await named(name);
      for (const id of ids) expect(live).toContain(id);
      for (const r of results) {
        if (r.status === "fulfilled") continue;
        // Every guardrail the service holds that no create returned is named in a failure.
        const message = String(r.reason);
        expect(message).toMatch(/Adopting one would be a guess, so none was adopted/);
        for (const id of live.filter((i) => !ids.includes(i))) expect(message).toContain(id);
      }
    }
  });

  it("a guardrail made by hand before the create started is never adopted", async () => {
    const byHand = await emu
      .client()
      .createGuardrail({ name: "twin-hand", limit_usd: 10, reset_interval: "weekly", allowed_providers: ["prov-1"] });
    await new Promise((r) => setTimeout(r, 5_100)); // outside the clock-skew allowance
    await emu.setFaults({ errorRate: 1, seed: 1 });
    const failed = await guardrail
      .create({
        __provider: "s",
        name: "twin-hand",
        limitUsd: 10,
        resetInterval: "weekly",
        allowedProviders: ["prov-1"],
      })
      .catch((e: Error) => e);
    await emu.setFaults({ errorRate: 0 });
    expect(String(failed)).toMatch(/HTTP 50\d/);
    expect(await named("twin-hand")).toEqual([byHand.id]);
  });
});
