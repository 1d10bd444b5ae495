/**
 * The create journal's part of a create that is never blindly repeated, whatever the kind
 * (create-journal.ts says what an entry is): before the POST the entries of killed runs for this
 * very create are recovered (an entry with an id: that record, adopted if it is what this create
 * would have made; without one: the record the POST may have made since the entry started), and
 * around each POST an entry is written, its id recorded when the POST (or the settling of an
 * ambiguous one) answers. The kind supplies only how to recognise its own record.
 */
import type { GuardrailsError } from "../client/errors";
import { isAmbiguous, type UnknownOutcome } from "../client/retry";
import { claim, isClaimed, serially, trackedPost } from "./create-claims";
import { JournalHandle } from "./create-journal";
import { discard } from "./journal-files";
import { settledEntry } from "./orphan";

/**
 * How long after a killed run's POST started the record it made may have been created: the
 * service acts on a request while it is being answered. A matching record created later is
 * someone else's, never adopted for an entry without id.
 */
export const LATE_CREATE_MS = 10 * 60_000;

/** How a kind recognises what a create of it made. */
export interface CreateMatcher<T extends { id: string }> {
  /**
   * The record an ambiguous POST made since `since` (and no later than `until`), claimed;
   * undefined when none landed; a throw when it cannot tell. Runs serially with the others.
   */
  settle(since: number, why: string, until?: number): Promise<T | undefined>;
  /** The record `id` (from a killed run's entry, started at `since`) when it is what this create would have made; else undefined. */
  adopt(id: string, since: number): Promise<T | undefined>;
}

/** Where a create's entry goes: `resource` (the face's name of it) and its createKey; both absent: no journal. */
export interface JournalPlace {
  resource?: string | undefined;
  key?: string | undefined;
}

/**
 * Creates once: recovers a killed run's record for this create (journal `place`), else POSTs
 * through `post` with the outcome that journals each attempt and settles an ambiguous one.
 */
export async function createJournaled<T extends { id: string }>(
  place: JournalPlace,
  matcher: CreateMatcher<T>,
  post: (outcome: UnknownOutcome<T>) => Promise<T>,
): Promise<T> {
  const recovered = place.key ? await recoverInterrupted(place.key, matcher) : undefined;
  return recovered ?? post(journaledOutcome(place, matcher));
}

const NO_JOURNAL = { landed: (_id: string) => undefined, remove: () => undefined };

/** The outcome of a create's POSTs: an entry around each, the settling of an ambiguous one serially. */
function journaledOutcome<T extends { id: string }>(place: JournalPlace, matcher: CreateMatcher<T>): UnknownOutcome<T> {
  let journal: { landed(id: string): void; remove(): void } = NO_JOURNAL;
  let started = Date.now();
  return {
    around: async (post) => {
      journal = place.resource && place.key ? JournalHandle.begin(place.resource, place.key) : NO_JOURNAL;
      started = Date.now();
      try {
        const made = await trackedPost(post);
        journal.landed(made.id);
        return made;
      } catch (err) {
        // An ambiguous failure keeps the entry: if settling it fails, the next run resumes from `started`.
        if (!isAmbiguous(err)) journal.remove();
        throw err;
      }
    },
    resolve: async (err: GuardrailsError) => {
      const found = await serially(() => matcher.settle(started, err.message));
      if (found) journal.landed(found.id);
      return found;
    },
    onGiveUp: () => journal.remove(),
  };
}

/** The record a killed run created for this exact create (`key`), if the journal says there is one; each entry is used once. */
async function recoverInterrupted<T extends { id: string }>(
  key: string,
  matcher: CreateMatcher<T>,
): Promise<T | undefined> {
  for (const orphan of JournalHandle.orphans(key)) {
    const { entry, file } = await settledEntry(orphan.file, orphan.entry);
    const found = await serially(async () => {
      const why = `a run was interrupted during this create at ${new Date(entry.started).toISOString()}`;
      if (!entry.id) return matcher.settle(entry.started, why, entry.started + LATE_CREATE_MS);
      if (isClaimed(entry.id)) return undefined;
      // The entry is a claim read from disk: the kind adopts only what this create would have made.
      const made = await matcher.adopt(entry.id, entry.started);
      return made && claim(made.id) ? made : undefined;
    });
    discard(file);
    if (found) return found;
  }
  return undefined;
}
