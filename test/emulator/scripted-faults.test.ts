/**
 * Scripted faults (issue 38): the emulator stages "this call lands and loses its answer, then
 * that one fails" for the named operations, in order, and nothing else. Over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collect, ConnectionError, ServerError } from "../../src/core/client";
import { withEmulator } from "../helpers/emulator";

let emu: Awaited<ReturnType<typeof withEmulator>>;
beforeAll(async () => {
  emu = await withEmulator();
});
afterAll(() => emu.close());

const admin = (body: unknown) =>
  fetch(`${emu.url}/__emulator/faults`, {
    method: "PUT",
    headers: { "x-guardrails-emulator": "1", "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("scripted faults", () => {
  it("hit the named calls in order; other calls pass; the script empties as it is spent", async () => {
    const client = emu.client({ retry: { maxAttempts: 1 } });
    const g = (await client.createGuardrail({ name: "scripted" })).id;
    const list = () => collect(client.listMemberAssignments(g));
    await emu.setFaults({
      script: [
        { operation: "assignMembers", fault: "drop" },
        { operation: "listGuardrailMemberAssignments", fault: 503, times: 2 },
      ],
    });
    // Not armed yet: the list entry waits for the assign's.
    expect(await list()).toEqual([]);
    await expect(client.assignMembers(g, ["user_alice"])).rejects.toBeInstanceOf(ConnectionError);
    await expect(list()).rejects.toBeInstanceOf(ServerError);
    await expect(list()).rejects.toBeInstanceOf(ServerError);
    // Spent: the assign landed although its answer was lost.
    expect((await list()).map((r) => r.user_id)).toEqual(["user_alice"]);
    expect(await (await admin({})).json()).toMatchObject({ script: [] });
    const log = await emu.log();
    expect(log.entries.filter((e) => (e as { fault?: string }).fault).length).toBe(3);
  });

  it("refuse an operation no route has, and a fault they cannot stage, naming the field", async () => {
    const bad = await admin({ script: [{ operation: "assignMember", fault: "drop" }] });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/script.*operation/);
    const worse = await admin({ script: [{ operation: "assignMembers", fault: 404 }] });
    expect(worse.status).toBe(400);
    expect(JSON.stringify(await worse.json())).toMatch(/script.*fault/);
  });
});
