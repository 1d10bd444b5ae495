/**
 * `explain`: whether a subject's effective access lets it reach a model, a provider or a data
 * region, and which layers decide (issue 41). Pure; the rules are docs/effective-access.md's.
 */
import { modelResolver } from "./combine";
import type { AllowList, DenyList, EffectiveAccess, LayerRef } from "./types";

/** What to ask about; every part given must pass. */
export interface AccessQuery {
  model?: string;
  provider?: string;
  region?: string;
}

/** One finding: which part of the query, whether it denies, why, and the layers that decide it. */
export interface Reason {
  about: "model" | "provider" | "region";
  denies: boolean;
  says: string;
  layers: LayerRef[];
}

/** The answer: allowed or denied; `deciding` names what decides it, `conditions` what still applies. */
export interface Verdict {
  allowed: boolean;
  deciding: Reason[];
  conditions: string[];
}

const quote = (s: string) => JSON.stringify(s);

/**
 * An allow list's word on `id`. Off any layer's list: denied by each layer that leaves it out. On
 * every list: those layers permit it. An empty intersection denies every request, asked or not.
 */
function throughAllow(about: Reason["about"], list: AllowList, id: string | undefined): Reason[] {
  const all = list.restrictedBy.map((r) => r.layer);
  if (list.allowed === null)
    return id === undefined ? [] : [{ about, denies: false, says: "no layer restricts it", layers: [] }];
  if (list.allowed.length === 0)
    return [{ about, denies: true, says: `the ${about} allow lists have nothing in common`, layers: all }];
  if (id === undefined) return [];
  if (list.allowed.includes(id))
    return [{ about, denies: false, says: `${quote(id)} is on every ${about} allow list`, layers: all }];
  const excluding = list.restrictedBy.filter((r) => !r.ids.includes(id)).map((r) => r.layer);
  return [{ about, denies: true, says: `${quote(id)} is not on the ${about} allow list`, layers: excluding }];
}

/** An ignore list's word on `id`: every layer listing it denies it. */
function throughDeny(about: Reason["about"], list: DenyList, id: string | undefined): Reason[] {
  const hit = id === undefined ? undefined : list.entries.find((e) => e.id === id);
  return hit ? [{ about, denies: true, says: `${quote(hit.id)} is on an ignore list`, layers: hit.from }] : [];
}

/** What applies to every request that gets through: the ZDR groups enforced and the budgets. */
function conditionsOf(access: EffectiveAccess): string[] {
  const zdr = Object.entries(access.zdr)
    .filter(([, e]) => e.enforced)
    .map(([group]) => `zero data retention enforced (${group})`);
  const budgets = access.budgets.map(
    (b) =>
      `budget ${b.limitUsd ?? "(no limit)"} USD ${b.resetInterval ?? "(no interval)"} from ${b.from.kind} ${b.from.id}`,
  );
  return [...zdr, ...budgets];
}

/**
 * Whether `access` lets its subject reach what `query` names: denied when any part is denied
 * (an allow list leaving it out, an ignore list naming it, an allow list left empty), with every
 * denying layer; otherwise allowed, with the layers that permit it. A model is resolved as the
 * diff resolves it (`access.modelAliases`).
 */
export function explain(access: EffectiveAccess, query: AccessQuery): Verdict {
  const model = query.model === undefined ? undefined : modelResolver(access.modelAliases)(query.model);
  const found = [
    ...throughAllow("model", access.allowedModels, model),
    ...throughDeny("model", access.ignoredModels, model),
    ...throughAllow("provider", access.allowedProviders, query.provider),
    ...throughDeny("provider", access.ignoredProviders, query.provider),
    ...throughAllow("region", access.allowedDataRegions, query.region),
  ];
  const denied = found.filter((r) => r.denies);
  return {
    allowed: denied.length === 0,
    deciding: denied.length > 0 ? denied : found,
    conditions: conditionsOf(access),
  };
}
