/**
 * Attack pass on effective access's refusal of a member on two guardrails of one workspace
 * (access-org.ts heldHere): within one provider process, a set that moves a member to another
 * guardrail of the workspace leaves the old row behind its own in the shared org view (marked
 * unsure: org-assignments.ts). That is this process's write, not the service listing two: the
 * lookup must answer the guardrail just assigned, as the service enforces, not refuse.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { effectiveAccessAnswer } from "../../src/core/data-sources/access-answer";
import { connectionOf, K0 } from "../helpers/access-layers";
import { DEFAULT_WS, type TestEmulator, withEmulator } from "../helpers/emulator";

let emu: TestEmulator;
beforeAll(async () => {
  emu = await withEmulator();
});
afterAll(async () => {
  await emu.close();
});

describe("effective access after this process moved a member", () => {
  it("answers the guardrail the member was moved to, not a refusal", async () => {
    const client = emu.client();
    const a = (await client.createGuardrail({ name: "A", workspace_id: DEFAULT_WS })).id;
    const b = (await client.createGuardrail({ name: "B", workspace_id: DEFAULT_WS })).id;
    await client.assignMembers(a, ["user_bob"]);
    const conn = connectionOf(client);
    const ask = () => effectiveAccessAnswer(conn, { memberId: "user_bob", workspaceId: DEFAULT_WS });
    const before = (await ask()) as { layers: Array<{ id?: string }> };
    expect(JSON.stringify(before)).toContain(a);
    // The service moves her off A (rule 5); the view keeps A's row behind B's, unsure.
    await client.assignMembers(b, ["user_bob"]);
    const after = JSON.stringify(await ask());
    expect(after).toContain(b);
    expect(after).not.toContain(a);
  });

  it("answers the guardrail a key was moved to, not a refusal", async () => {
    // Rule 6: a key holds one guardrail at all; assigning it moves it, and the view keeps the old row.
    const client = emu.client();
    const a = (await client.createGuardrail({ name: "KA", workspace_id: DEFAULT_WS })).id;
    const b = (await client.createGuardrail({ name: "KB", workspace_id: DEFAULT_WS })).id;
    await client.assignKeys(a, [K0]);
    const conn = connectionOf(client);
    const ask = () => effectiveAccessAnswer(conn, { keyHash: K0, workspaceId: DEFAULT_WS });
    expect(JSON.stringify(await ask())).toContain(a);
    await client.assignKeys(b, [K0]);
    const after = JSON.stringify(await ask());
    expect(after).toContain(b);
    expect(after).not.toContain(a);
  });
});
