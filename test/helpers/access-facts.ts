/** Builders of effective-access facts (src/core/access) for the tests: plain data, defaults filled. */
import type {
  AccessFacts,
  GuardrailFacts,
  LayerSettings,
  PolicyFacts,
  WorkspaceWideFacts,
} from "../../src/core/access";
import type { PolicyKind } from "../../src/core/fields/policy-kinds";

export const WS = "00000000-0000-4000-8000-000000000001";
export const OTHER_WS = "00000000-0000-4000-8000-000000000002";

export const guardrail = (id: string, settings: LayerSettings = {}): GuardrailFacts => ({ id, name: id, settings });

export const policy = (
  id: string,
  kind: PolicyKind,
  settings: LayerSettings,
  more: Partial<PolicyFacts> = {},
): PolicyFacts => ({
  id,
  name: id,
  kind,
  settings,
  memberIds: [],
  keyHashes: [],
  isWorkspaceDefault: false,
  optedOutMemberIds: [],
  optedOutKeyHashes: [],
  ...more,
});

export const workspaceWide = (
  id: string,
  kind: PolicyKind,
  settings: LayerSettings,
  more: Partial<WorkspaceWideFacts> = {},
): WorkspaceWideFacts => ({
  id,
  name: id,
  kind,
  settings,
  workspaceIds: [WS],
  optedOutWorkspaceIds: [],
  isDefault: false,
  ...more,
});

/** Facts of `user_a` in WS (or of what `more` says), nothing applying unless given. */
export const facts = (more: Partial<AccessFacts> = {}): AccessFacts => ({
  subject: { member: "user_a" },
  workspaceId: WS,
  workspaceDefault: null,
  memberGuardrail: null,
  keyGuardrail: null,
  policies: [],
  workspaceWide: [],
  ...more,
});

/** Facts of key `k1`, owned by `user_a`. */
export const keyFacts = (more: Partial<AccessFacts> = {}): AccessFacts =>
  facts({ subject: { key: "k1", ownerMember: "user_a" }, ...more });
