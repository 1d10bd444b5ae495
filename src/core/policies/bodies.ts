/**
 * The bodies a workspace policy sends (rule 24): a create carries everything the program gives;
 * an update name and config always, each pair of lists only when one of it changes, the default
 * flag only when it changes, so the service keeps what this resource does not manage.
 */
import type { IdList, PolicyInputs } from "./args";
import { changedLists } from "./changes";
import type { PolicyTypeName } from "../kinds";
import { configBody, LIST_WIRE, type PolicyOutputs } from "./model";
import type { WirePolicyDetail, WirePolicyWrite } from "./ops";

/** The body of a create: everything the program gives (nobody can have changed a policy that did not exist). */
export function createBody(type: PolicyTypeName, inputs: PolicyInputs, workspaceId: string): WirePolicyWrite {
  const lists = Object.fromEntries(
    (Object.keys(LIST_WIRE) as IdList[])
      .filter((l) => inputs[l] !== undefined)
      .map((l) => [LIST_WIRE[l], [...new Set(inputs[l])]]),
  );
  // Rule 24's pair: one assignment list goes with the other.
  if (lists.member_ids || lists.api_key_hashes)
    Object.assign(lists, { member_ids: lists.member_ids ?? [], api_key_hashes: lists.api_key_hashes ?? [] });
  return {
    name: inputs.name,
    config: configBody(type, inputs),
    workspace_id: workspaceId,
    ...lists,
    ...(inputs.workspaceDefault ? { is_workspace_default: true } : {}),
  };
}

/**
 * The PUT: name and config always; each pair of lists only when one of it changes; the flag only
 * when it changes. A PUT replaces `config` whole (rule 24), so the settings this package does not
 * manage go back as the update's GET read them (`live`): an update never wipes them.
 */
export function updateBody(
  type: PolicyTypeName,
  olds: PolicyOutputs,
  inputs: PolicyInputs,
  live: WirePolicyDetail,
): WirePolicyWrite {
  const changed = new Set(changedLists(olds, inputs));
  const pair = (a: IdList, b: IdList) =>
    changed.has(a) || changed.has(b)
      ? Object.fromEntries(
          [a, b].map((l) => [
            LIST_WIRE[l],
            [...new Set(inputs[l] ?? (live[LIST_WIRE[l] as keyof WirePolicyDetail] as string[] | null) ?? [])],
          ]),
        )
      : {};
  const flag = inputs.workspaceDefault ?? false;
  return {
    name: inputs.name,
    config: { ...live.unmanaged_config, ...configBody(type, inputs) },
    workspace_id: olds.workspaceId,
    ...pair("memberUserIds", "keyHashes"),
    ...pair("optedOutMemberUserIds", "optedOutKeyHashes"),
    ...(flag !== olds.workspaceDefault ? { is_workspace_default: flag } : {}),
  };
}
