/**
 * `explain` and `who` over a source of layers (source.ts): the live service or a stack's state.
 * `explain` reads one subject's facts; `who` reads the workspace once and computes every
 * subject's facts in memory (`factsOf`), so its calls do not grow with the number of members.
 */
import type { AccessQuery } from "../core/access";
import type { AccessSubject } from "../core/data-sources/access-org";
import { factsOf } from "../core/data-sources/access-org";
import { type ExplainAnswer, asks, subjectShown, verdictOf, type WhoAnswer, type WhoRow } from "./answers";
import type { AccessSource } from "./source";

/** No listing names this id: it stands for every member or key no listing names. */
const ANY_OTHER = "\u0000any other";

/** What stands for an id the stack holds secret. */
const SECRET = "[secret]";

const OWNER_UNKNOWN =
  "the service does not say who owns a key: a key's answer leaves its owner's layers out, so a key shown allowed may still be denied by them (certain: false); explain --key HASH --owner MEMBER_ID adds them";

/** Whether `subject` may reach what `query` names, with the deciding layers; no query: its effective access. */
export async function explainSubject(
  source: AccessSource,
  subject: AccessSubject,
  query: AccessQuery,
  workspaceId?: string,
): Promise<ExplainAnswer> {
  const { facts, ownerKnown } = await source.facts(subject, workspaceId);
  const { access, conditions, verdict } = verdictOf(facts, query, { ownerKnown, source: source.kind });
  return {
    command: "explain",
    source: source.kind,
    workspaceId: facts.workspaceId,
    subject: subjectShown(subject),
    ownerKnown,
    query: asks(query) ? query : null,
    verdict: asks(query) ? verdict : null,
    conditions,
    layers: access.layers,
    access,
    notes: [...(ownerKnown ? [] : [OWNER_UNKNOWN]), ...source.notes],
  };
}

/** Rows by id, then the secret ones (their place among the others would say something of them), then "any other". */
const ordered = (rows: WhoRow[]) => [
  ...rows.filter((r) => r.id !== null && r.id !== SECRET),
  ...rows.filter((r) => r.id === SECRET),
  ...rows.filter((r) => r.id === null),
];

/** Every member and key of the workspace (and "any other" of each) with its verdict on `query`. */
export async function whoCanReach(source: AccessSource, query: AccessQuery, workspaceId?: string): Promise<WhoAnswer> {
  const { org, memberIds, keyHashes } = await source.org(workspaceId);
  const row = (id: string, subject: AccessSubject): WhoRow => {
    const { facts, ownerKnown } = factsOf(org, subject);
    const { verdict } = verdictOf(facts, query, { ownerKnown, source: source.kind });
    return { id: id === ANY_OTHER ? null : source.hides?.(id) ? SECRET : id, ownerKnown, ...verdict };
  };
  return {
    command: "who",
    source: source.kind,
    workspaceId: org.workspaceId,
    query,
    members: ordered([...memberIds, ANY_OTHER].map((m) => row(m, { memberId: m }))),
    keys: ordered([...keyHashes, ANY_OTHER].map((k) => row(k, { keyHash: k }))),
    notes: [
      "the management API lists no organization members: a member or key that no guardrail assignment and no policy names holds only the workspace's defaults, shown as any other member / key",
      OWNER_UNKNOWN,
      ...source.notes,
    ],
  };
}
