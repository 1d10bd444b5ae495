/**
 * Set arithmetic for assignment sets, pure. `add = desired - live`; `remove = live - desired`
 * in exclusive mode, and in additive mode only ids this resource managed before.
 */

export interface PlanInput {
  desired: ReadonlySet<string>;
  live: ReadonlySet<string>;
  /** Ids this resource managed before (additive mode removes only these). */
  managed: ReadonlySet<string>;
  exclusive: boolean;
}

export interface Plan {
  add: string[];
  remove: string[];
}

export function planChanges({ desired, live, managed, exclusive }: PlanInput): Plan {
  const add = [...desired].filter((id) => !live.has(id)).sort();
  const remove = [...live].filter((id) => !desired.has(id) && (exclusive || managed.has(id))).sort();
  return { add, remove };
}
