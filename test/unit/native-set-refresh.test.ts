/**
 * A native set's refresh answers inputs that keep the id map beside the program's list, as the
 * dynamic face's do, so the next Check knows which ids are held here and searches the
 * organization only for the ones that are not (the parity suite's drift step: the calls of
 * both faces are equal). Against the emulator over HTTP.
 */
import { describe, expect, it } from "vitest";
import { DEMO_KEY_HASHES as HASH } from "../../emulator";
import { KEY_KIND } from "../../src/core/assignments/kind";
import { nativeSetLifecycle } from "../../src/native/sets";
import { useProviderEmulator } from "../helpers/emulator";
import { processConfig } from "../../src/core/settings/config";

const emu = useProviderEmulator();
const keys = nativeSetLifecycle(KEY_KIND, processConfig);
const urn = "urn:pulumi:dev::p::guardrails:index:GuardrailKeyAssignment::eng-keys";

describe("native sets: refresh then check", () => {
  it("a refreshed set with nothing to add makes no search of the organization's assignments", async () => {
    const g = await emu.client().createGuardrail({ name: "Refreshed", limit_usd: 1, reset_interval: "daily" });
    const news = { guardrailId: g.id, keyHashes: [HASH[0]!], __resource: urn };
    const created = await keys.create((await keys.check({}, news)).inputs);
    const refreshed = await keys.read(created.id, created.properties);
    expect(refreshed?.inputs).toEqual({ guardrailId: g.id, keyHashes: [HASH[0]], keys: { [HASH[0]!]: true } });

    await emu.clearLog();
    const checked = await keys.check(refreshed!.inputs, news);
    expect(checked.failures).toEqual([]);
    expect((await emu.log()).entries.map((e) => `${e.method} ${e.path}`)).toEqual([]);
  });
});
