/**
 * What the creates of this provider process know about each other. One provider process
 * serves every Guardrail of a `pulumi up`, so two resources with identical args may create
 * at the same moment. When one create's answer is lost, the guardrail the other one made
 * looks exactly like ours; it must never be adopted. So every POST is tracked while it is
 * in flight, every id a POST returned (or a resolution adopted) is claimed, and an
 * ambiguous create waits for the other POSTs to settle before it looks at candidates.
 */

const claimed = new Set<string>();
const inFlight = new Set<Promise<void>>();

/** Runs a POST, claiming the id it returns the moment it returns. */
export async function trackedPost<T extends { id: string }>(post: () => Promise<T>): Promise<T> {
  const result = post();
  const settled = result.then(
    (g) => void claimed.add(g.id),
    () => undefined,
  );
  inFlight.add(settled);
  try {
    return await result;
  } finally {
    await settled;
    inFlight.delete(settled);
  }
}

/** Resolves when every POST in flight now has settled (and claimed what it returned). */
export async function othersSettled(): Promise<void> {
  await Promise.all([...inFlight]);
}

/** Claims `id` for one resource; false when another resource of this process holds it. */
export function claim(id: string): boolean {
  if (claimed.has(id)) return false;
  claimed.add(id);
  return true;
}

export function isClaimed(id: string): boolean {
  return claimed.has(id);
}

let queue: Promise<unknown> = Promise.resolve();

/** Runs ambiguous-create resolutions one at a time, so two never claim from one listing. */
export function serially<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work);
  queue = run.catch(() => undefined);
  return run;
}
