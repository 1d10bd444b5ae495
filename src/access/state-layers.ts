/**
 * A workspace's layers as a stack's state holds them (`pulumi stack export`), for
 * `guardrails-access --stack-state` (issue 41): the guardrails, the workspace default, the
 * member and key sets, the workspace policies and the workspace-wide policies the stack manages,
 * on either face, read from their recorded outputs into the `OrgRead` the service reader answers
 * (src/core/data-sources/access-org.ts). No call is made.
 *
 * What the stack does not manage is not known, and said (`unknown`): the workspace default when
 * no WorkspaceDefaultGuardrail of the workspace is in the state, a set's guardrail that is not,
 * any id list a plain export leaves encrypted, any setting the program holds secret, and
 * everything made elsewhere.
 *
 * Secrets stay secret: a setting the program made secret is never read, even from a
 * `--show-secrets` export (an answer would print it); an id list a `--show-secrets` export opens
 * counts for the verdicts, and its ids are recorded in `secretIds` so no answer names them.
 */
import type { GuardrailFacts, LayerSettings, WorkspaceWideFacts } from "../core/access";
import { assignedIn, type StatusMap } from "../core/assignments/state-map";
import type { OrgRead, PolicyRead } from "../core/data-sources/access-org";
import { FIELD_NAMES, type FieldName, spec } from "../core/fields/fields";
import { POLICY_FIELDS, type PolicyKind } from "../core/fields/policy-kinds";
import { KINDS, type KindRow, POLICY_TYPE_NAMES, type ResourceTypeName, SET_TYPE_NAMES } from "../core/kinds";
import { isSecretEnvelope, SIG_KEY } from "../core/markers";
import { WW_POLICY_TYPES } from "../core/policies/workspace-wide-args";
import { idText } from "../core/text/terminal";
import { resourceOfToken } from "../core/type-tokens";
import { UserError } from "../core/user-error";
import { stateResources } from "../export/from-state";

type Props = Record<string, unknown>;

/** One resource of ours: its kind and recorded outputs, secrets opened where the export holds them in plain text. */
interface Ours {
  type: ResourceTypeName;
  urn: string;
  outs: Props;
}

/** A secret as a `--show-secrets` export holds it (`plaintext`, JSON), else `SEALED`. */
const SEALED = Symbol("sealed");
function opened(v: unknown): unknown {
  if (!isSecretEnvelope(v)) return v;
  const e = v as Props;
  if ("value" in e) return opened(e.value);
  if (typeof e.plaintext === "string") {
    try {
      return opened(JSON.parse(e.plaintext));
    } catch {
      return SEALED;
    }
  }
  return SEALED;
}

const lower = (s: unknown) => (typeof s === "string" ? s.toLowerCase() : null);
const text = (s: unknown) => (typeof s === "string" ? s : null);
const nameOf = (r: Ours) => idText(r.urn.split("::").pop());

/** The state says two things of one layer: the service holds one of them, which is not known. */
const contradiction = (what: string) =>
  new UserError(
    `the stack's state ${what}; the service holds only one, and which is not known, so no answer is given (the live service, without --stack-state, knows)`,
  );

/** The layers of a stack's state, per workspace, with what could not be read. */
export class StateLayers {
  readonly unknown: string[] = [];
  /** Ids read from an opened secret: counted, never shown. */
  readonly secretIds = new Set<string>();
  private readonly ours: Ours[];

  constructor(state: unknown) {
    this.ours = stateResources(state).flatMap((r) => {
      const kind = resourceOfToken(r.type);
      if (!kind || r.delete === true || !r.outputs || typeof r.outputs !== "object") return [];
      return [{ type: kind.type, urn: r.urn, outs: r.outputs as Props }];
    });
  }

  /** A value of a resource's outputs; a sealed one is noted (by resource name, never its value) and reads as absent. */
  private read(r: Ours, name: string): unknown {
    const v = opened(r.outs[name]);
    if (v !== SEALED) return v;
    this.unknown.push(`${name} of ${nameOf(r)} is a secret this export does not show (export with --show-secrets)`);
    return undefined;
  }

  /** A setting: never one the program holds secret (an answer prints settings), even when the export opened it. */
  private setting(r: Ours, name: string): unknown {
    if (!isSecretEnvelope(r.outs[name])) return r.outs[name];
    this.unknown.push(`${name} of ${nameOf(r)}: the program holds it secret, so it is not read`);
    return undefined;
  }

  private settings(r: Ours, names: readonly FieldName[]): LayerSettings {
    const out: Props = {};
    for (const k of names) {
      const canonical = k === "allowedModels" || k === "ignoredModels" ? this.setting(r, `${k}Canonical`) : undefined;
      const v = Array.isArray(canonical) ? canonical : this.setting(r, k);
      if (v === undefined || v === null) continue;
      // A hand-edited state: a value of another shape is not known (and said), never read as no restriction.
      // Only the shape: a recorded value may hold what args refuse (a filter's label, an empty list).
      const issues = spec(k).arg.safeParse(v).error?.issues ?? [];
      if (!issues.some((i) => i.path.length === 0 && i.code === "invalid_type")) out[k] = v;
      else this.unknown.push(`${k} of ${nameOf(r)}: not a value this package reads, so not known`);
    }
    return out as LayerSettings;
  }

  /** An id list: the dynamic face's map `{id: true}` or a list. */
  private ids(r: Ours, name: string): Set<string> {
    const v = this.read(r, name);
    const out = Array.isArray(v)
      ? new Set(v.filter((x): x is string => typeof x === "string"))
      : v && typeof v === "object" && !(SIG_KEY in v)
        ? assignedIn(v as StatusMap)
        : new Set<string>();
    if (isSecretEnvelope(r.outs[name])) for (const id of out) this.secretIds.add(id);
    return out;
  }

  private of(row: KindRow) {
    return this.ours.filter((r) => KINDS[r.type] === row);
  }

  /** Every workspace id the state's resources name. */
  workspaces(): string[] {
    const ids = this.ours.flatMap((r) => {
      const ws = lower(r.outs.workspaceId) ?? lower(r.outs.defaultWorkspaceId);
      return ws ? [ws] : [];
    });
    return [...new Set(ids)].sort();
  }

  /** The layers of workspace `ws` the stack manages. */
  org(ws: string): OrgRead {
    const inWs = (r: Ours) => (lower(r.outs.workspaceId) ?? lower(r.outs.defaultWorkspaceId)) === ws;
    const guardrails = new Map<string, GuardrailFacts>();
    for (const r of this.of(KINDS.Guardrail).filter(inWs)) {
      const id = lower(r.outs.guardrailId) ?? lower(r.urn);
      if (id && guardrails.has(id)) throw contradiction(`holds guardrail ${idText(id)} twice (${nameOf(r)} is one)`);
      if (id) guardrails.set(id, { id, name: text(r.outs.name), settings: this.settings(r, FIELD_NAMES) });
    }
    const dflts = this.of(KINDS.WorkspaceDefaultGuardrail).filter(inWs);
    if (dflts.length > 1)
      throw contradiction(
        `holds ${dflts.length} WorkspaceDefaultGuardrail of workspace ${idText(ws)} (${dflts.map(nameOf).join(", ")})`,
      );
    const dflt = dflts[0];
    if (!dflt)
      this.unknown.push(
        `the workspace default guardrail of ${idText(ws)} (no WorkspaceDefaultGuardrail of it in the stack): read as restricting nothing`,
      );
    return {
      workspaceId: ws,
      workspaceDefault: dflt
        ? {
            id: lower(dflt.outs.guardrailId) ?? ws,
            name: text(dflt.outs.name),
            settings: this.settings(dflt, FIELD_NAMES),
          }
        : null,
      guardrails,
      memberHolders: this.holders("member", guardrails),
      keyHolders: this.holders("key", guardrails),
      policies: POLICY_TYPE_NAMES.flatMap((t) =>
        this.of(KINDS[t])
          .filter(inWs)
          .map((r) => this.policy(r, KINDS[t].policy.fields)),
      ),
      workspaceWide: this.of(KINDS.WorkspaceWidePolicy).flatMap((r) => this.wide(r)),
    };
  }

  /** Each member's (or key's) guardrails, from the sets of that noun. */
  private holders(noun: "member" | "key", here: Map<string, GuardrailFacts>) {
    const type = SET_TYPE_NAMES.find((t) => KINDS[t].set.noun === noun)!;
    const set = KINDS[type].set;
    const out = new Map<string, string[]>();
    for (const r of this.of(KINDS[type])) {
      const g = lower(this.read(r, "guardrailId"));
      if (!g) continue;
      const ids = r.outs[set.stateKey] !== undefined ? this.ids(r, set.stateKey) : this.ids(r, set.argName);
      if (!here.has(g) && ids.size > 0)
        this.unknown.push(
          `${set.noun}s of guardrail ${idText(g)}, which the stack does not manage in this workspace: their guardrail is not known`,
        );
      for (const id of ids) out.set(id, [...(out.get(id) ?? []), g]);
    }
    for (const [id, gs] of out) {
      const inHere = [...new Set(gs.filter((g) => here.has(g)))];
      if (inHere.length > 1)
        throw contradiction(
          `puts ${noun} ${this.secretIds.has(id) ? "[secret]" : idText(id)} in ${inHere.length} guardrails of this workspace (${inHere.map((g) => idText(g)).join(", ")})`,
        );
    }
    return out;
  }

  private policy(r: Ours, kind: PolicyKind): PolicyRead {
    const reference = this.read(r, "reference");
    return {
      id: lower(r.outs.policyId) ?? r.urn,
      name: text(r.outs.name),
      kind,
      settings: this.settings(r, POLICY_FIELDS[kind] as readonly FieldName[]),
      isWorkspaceDefault: this.read(r, "workspaceDefault") === true,
      isLegacyMapped: reference === "legacy_mapping",
      legacyGuardrailIds: [...this.ids(r, "legacyGuardrailIds")].map((g) => g.toLowerCase()),
      memberIds: this.ids(r, "memberUserIds"),
      keyHashes: this.ids(r, "keyHashes"),
      optedOutMemberIds: this.ids(r, "optedOutMemberUserIds"),
      optedOutKeyHashes: this.ids(r, "optedOutKeyHashes"),
    };
  }

  private wide(r: Ours): WorkspaceWideFacts[] {
    const type = r.outs.policyType;
    const kind =
      typeof type === "string" && Object.hasOwn(WW_POLICY_TYPES, type)
        ? WW_POLICY_TYPES[type as keyof typeof WW_POLICY_TYPES]
        : undefined;
    if (!kind) {
      this.unknown.push(`${nameOf(r)}: a workspace-wide policy of a kind this package does not know, not combined`);
      return [];
    }
    return [
      {
        id: lower(r.outs.policyId) ?? r.urn,
        name: text(r.outs.name),
        kind,
        settings: this.settings(r, POLICY_FIELDS[kind] as readonly FieldName[]),
        workspaceIds: [...this.ids(r, "workspaceIds")].map((w) => w.toLowerCase()),
        optedOutWorkspaceIds: [...this.ids(r, "optedOutWorkspaceIds")].map((w) => w.toLowerCase()),
        isDefault: this.read(r, "allWorkspaces") === true,
      },
    ];
  }
}
