/**
 * "Not found" must really mean not found: with a base URL that doubles `/api/v1` or adds a
 * prefix the service does not serve, every call answers 404, and `read` must never take that
 * for "deleted" (Pulumi would drop the resource from state and the next `up` duplicate it).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { checkBaseUrl } from "../../src/core/client";
import { configure, resetConfiguration } from "../../src/core/settings/config";
import { guardrail, memberAssignment } from "../../src/dynamic/internal";
import type { GuardrailOutputs } from "../../src/core/guardrail/model";
import { TEST_KEY, withEmulator } from "../helpers/emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
beforeAll(async () => {
  emu = await withEmulator();
});
afterAll(() => emu.close());

const useUrl = (url: string) => {
  resetConfiguration();
  configure((k) => ({ "guardrails:apiKey": TEST_KEY, "guardrails:baseUrl": url, "guardrails:maxAttempts": "2" })[k]);
};
beforeEach(() => useUrl(emu.url));

describe("checkBaseUrl", () => {
  it("strips a pasted /api/v1 suffix and trailing slashes, keeps a real path prefix", () => {
    expect(checkBaseUrl("http://127.0.0.1:8787/api/v1")).toBe("http://127.0.0.1:8787");
    expect(checkBaseUrl("https://api.example.com/api/v1/")).toBe("https://api.example.com");
    expect(checkBaseUrl("https://api.example.com/gw/api/v1")).toBe("https://api.example.com/gw");
    expect(checkBaseUrl("https://api.example.com/gw/")).toBe("https://api.example.com/gw");
    expect(() => checkBaseUrl("https://api.example.com/?key=abc")).toThrow(/must not carry a query or fragment/);
  });
});

describe("read after a 404", () => {
  async function fixtures() {
    const g = await guardrail.create({ __provider: "s", name: "kept", limitUsd: 3, resetInterval: "daily" });
    const set = await memberAssignment.create({
      __provider: "s",
      guardrailId: g.id,
      members: { user_alice: true },
      exclusive: false,
    });
    return {
      g: { id: g.id, outs: g.outs as GuardrailOutputs },
      set: { id: set.id, outs: set.outs as Record<string, unknown> },
    };
  }

  it("a base URL ending in /api/v1 works: the suffix is stripped", async () => {
    const { g, set } = await fixtures();
    useUrl(`${emu.url}/api/v1`);
    expect((await guardrail.read(g.id, g.outs)).id).toBe(g.id);
    expect((await memberAssignment.read(set.id, set.outs)).id).toBe(set.id);
  });

  it("a wrong path prefix fails naming the URL; nothing is reported deleted", async () => {
    const { g, set } = await fixtures();
    useUrl(`${emu.url}/proxy`);
    const err = await guardrail.read(g.id, g.outs).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain(`guardrail "kept" (${g.id}): not reported as deleted`);
    expect((err as Error).message).toContain(`now "${emu.url}/proxy"`);
    expect((err as Error).message).toMatch(/no route for GET \/proxy\/api\/v1\/guardrails/);
    await expect(memberAssignment.read(set.id, set.outs)).rejects.toThrow(
      /GuardrailMemberAssignment of guardrail .*: not reported as deleted/,
    );
    // A delete through the wrong URL must not pass for "already gone" either.
    await expect(guardrail.delete(g.id, g.outs)).rejects.toThrow(/not reported as deleted/);
    await expect(memberAssignment.delete(set.id, set.outs)).rejects.toThrow(/not reported as deleted/);
    useUrl(emu.url);
    expect((await guardrail.read(g.id, g.outs)).id).toBe(g.id);
  });

  it("a guardrail really deleted out of band is still reported gone, with one list call to confirm", async () => {
    const { g, set } = await fixtures();
    await emu.client().deleteGuardrail(g.id);
    await emu.clearLog();
    expect(await guardrail.read(g.id, g.outs)).toEqual({});
    expect((await emu.log()).counts).toEqual({ getGuardrail: 1, listGuardrails: 1 });
    expect(await memberAssignment.read(set.id, set.outs)).toEqual({});
  });
});
