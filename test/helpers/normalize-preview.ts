/**
 * Makes real `pulumi preview --json` output fit to keep as a golden fixture: the same steps and
 * values, with what changes from run to run made stable. Guardrail ids become fixed UUIDs in
 * the order of their logical names (so references between resources still match), other random
 * UUIDs, the emulator's port and timestamps become constants, and the serialized provider code
 * and source positions (large, and about the test machine) are dropped.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** Pulumi's "unknown" sentinel and the emulator's fixed workspace ids keep their meaning. */
const KEEP = (u: string) => u === "04da6b54-80e4-46f7-96ec-b56ff0331ba9" || u.startsWith("00000000-0000-4000-8000-");

export function normalizePreviewJson(raw: {
  steps: Array<{ urn: string; oldState?: { id?: string }; newState?: { id?: string } }>;
}): any {
  const guardrails = new Map<string, string>();
  for (const s of raw.steps) {
    if (!s.urn.includes(":Guardrail::")) continue;
    const id = s.oldState?.id ?? s.newState?.id;
    if (id && !KEEP(id)) guardrails.set(s.urn.split("::").pop()!, id);
  }
  const fixed = new Map<string, string>();
  for (const [i, name] of [...guardrails.keys()].sort().entries())
    fixed.set(guardrails.get(name)!, `00000000-0000-4000-8000-1000000000${String(i + 1).padStart(2, "0")}`);
  const text = JSON.stringify(
    raw,
    (k, v) =>
      k === "__provider"
        ? "[serialized provider, left out of the fixture]"
        : k === "stackTrace" || k === "sourcePosition"
          ? undefined
          : k === "duration"
            ? 0
            : v,
    2,
  )
    // A set's status names a guardrail by its id's first 8 characters (`on guardrail Support (0d22aad6…)`).
    .replace(/\(([0-9a-f]{8})…\)/g, (whole, prefix: string) => {
      const real = [...fixed.keys()].find((id) => id.startsWith(prefix));
      return real ? `(${fixed.get(real)!.slice(0, 8)}…)` : whole;
    })
    .replace(UUID, (u) => fixed.get(u) ?? (KEEP(u) ? u : "00000000-0000-4000-8000-ffffffffffff"))
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, "http://127.0.0.1:8787")
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, (t) =>
      t.startsWith("0001-") ? t : "2026-01-01T00:00:00.000Z",
    );
  return JSON.parse(text);
}
