/**
 * An organization set up by hand through the management API, the way an admin would in the
 * dashboard: five guardrails in two workspaces, every kind of setting, members and keys.
 * Shared by the export tests (provider level and e2e under the real CLI).
 */

/** `(method, path under /api/v1, body)` -> `{status, body}`, as `http()` in spawn-emulator.ts. */
export type ApiCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

export const DEFAULT_WS = "00000000-0000-4000-8000-000000000001";
export const SECOND_WS = "00000000-0000-4000-8000-000000000002";

/** The guardrails made, as the service's create bodies, with their sets. */
export const HAND_MADE = [
  {
    body: {
      name: "Engineering",
      description: "Default policy: product engineers\nsecond line, with 'quotes' and \"double quotes\"",
      // Slugs on the way in: the service holds (and the export writes) canonical slugs.
      allowed_models: ["vendor-a/model-x", "vendor-b/model-m-20260201", "vendor-c/model-q"],
      allowed_providers: ["prov-1", "prov-2"],
      ignored_models: ["other-lab/open-model-8b"],
      ignored_providers: ["prov-9"],
      limit_usd: 250.5,
      reset_interval: "monthly",
      enforce_zdr: true,
      enforce_zdr_other: false,
      content_filter_builtins: [
        { slug: "email", action: "redact" },
        { slug: "credit-card", action: "block" },
        { slug: "regex-prompt-injection", action: "flag", scan_scope: "user_only" },
      ],
      content_filters: [
        { pattern: "secret-\\d+", action: "block", label: "[SECRET]" },
        { pattern: "^#\\s*internal: .*$", action: "flag" },
      ],
    },
    members: ["user_bob", "user_alice"],
    keys: ["a1b2c3d4e5f60718"],
  },
  {
    body: { name: "Support", limit_usd: 50, reset_interval: "daily", enforce_zdr_vendor_b: true },
    members: ["user_erin", "user_carol"],
    keys: [],
  },
  {
    body: {
      name: "Support",
      workspace_id: SECOND_WS,
      description: "Same name, other workspace",
      allowed_providers: ["prov-3"],
    },
    members: ["user_erin"],
    keys: ["b2c3d4e5f6071829", "c3d4e5f60718293a"],
  },
  {
    body: {
      name: "🚀🚀",
      workspace_id: SECOND_WS,
      ignored_models: ["vendor-a/model-x-mini-20260115"],
      enforce_zdr: false,
    },
    members: [],
    keys: [],
  },
  {
    body: {
      name: "R&D — Zürich",
      workspace_id: SECOND_WS,
      content_filter_builtins: [{ slug: "regex-prompt-injection", action: "block" }],
      limit_usd: 0,
      reset_interval: "weekly",
    },
    members: ["user_alice", "user_dave"],
    keys: ["d4e5f60718293a4b"],
  },
] as const;

/** Creates HAND_MADE through the API; answers the service's ids in the same order. */
export async function populateOrganization(api: ApiCall): Promise<string[]> {
  const ids: string[] = [];
  for (const g of HAND_MADE) {
    const created = await api("POST", "/guardrails", g.body);
    if (created.status !== 201)
      throw new Error(`create ${g.body.name}: ${created.status} ${JSON.stringify(created.body)}`);
    const id = created.body.data.id as string;
    if (g.members.length > 0)
      await expectOk(api("POST", `/guardrails/${id}/assignments/members`, { member_user_ids: g.members }));
    if (g.keys.length > 0) await expectOk(api("POST", `/guardrails/${id}/assignments/keys`, { key_hashes: g.keys }));
    ids.push(id);
  }
  return ids;
}

async function expectOk(res: Promise<{ status: number; body: any }>): Promise<void> {
  const r = await res;
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
}
