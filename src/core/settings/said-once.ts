/**
 * What this provider process has already explained in full. One process serves every resource
 * of a run, and a wrong key, URL or config fails each of them: the first error says what is
 * wrong and how to fix it, the others point back to it (issue 24: 20 identical long errors).
 */
const said = new Set<string>();

/** True the first time `what` is asked about in this process, false after. */
export function firstTime(what: string): boolean {
  if (said.has(what)) return false;
  said.add(what);
  return true;
}

/** For tests: forget what was said. */
export function forgetSaid(): void {
  said.clear();
}
