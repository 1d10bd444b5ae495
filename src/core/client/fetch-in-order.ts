/**
 * The pages of one walk after its first, fetched in parallel but handed over in offset order
 * (issue 29), so that every check of pagination.ts runs as if the walk were serial.
 */
/**
 * Fetches pages 1..count-1 with at most `concurrency` in flight and no page sent more than
 * `2 × concurrency` ahead of the first not yet taken; hands them to `take` in order. Stops at
 * the first error (pages still in flight are dropped).
 */
export function fetchInOrder<P>(
  count: number,
  concurrency: number,
  fetchAt: (index: number) => Promise<P>,
  take: (index: number, page: P) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const ready = new Map<number, P>();
    let next = 1;
    let taken = 1;
    let inFlight = 0;
    let stopped = false;
    const stop = (err: unknown) => {
      stopped = true;
      reject(err);
    };
    const pump = (): void => {
      for (let page = ready.get(taken); !stopped && page !== undefined; page = ready.get(taken)) {
        ready.delete(taken);
        try {
          take(taken++, page);
        } catch (err) {
          stop(err);
          return;
        }
      }
      if (stopped) return;
      if (taken >= count) {
        resolve();
        return;
      }
      while (next < count && inFlight < concurrency && next < taken + 2 * concurrency) {
        const index = next++;
        inFlight++;
        fetchAt(index).then(
          (page) => {
            inFlight--;
            ready.set(index, page);
            pump();
          },
          // The first failure stops the walk for good: nothing reads inFlight after it, and a
          // second reject is a no-op.
          stop,
        );
      }
    };
    pump();
  });
}
