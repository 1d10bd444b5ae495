/**
 * A run killed mid-create leaves its journal entry (create-journal.ts); its provider process
 * may still be running, with its POST in flight. A create that finds such an entry waits,
 * within a bound, for that process to record the id it got, whatever the kind it creates.
 */
import { currentEntry, stillRuns, type JournalEntry } from "./create-journal";

/** How long to wait for an orphaned provider process of a killed run to finish its POST, in polls. */
const ORPHAN_POLL_MS = 250;
const ORPHAN_POLLS = 60_000 / ORPHAN_POLL_MS;

/** The pause between two looks at an orphan's entry; a test counts the waits through it. */
export const orphanPoll = { sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) };

/** Waits while the orphaned provider process that wrote the entry may still record an id; answers the entry and where it is now. */
export async function settledEntry(file: string, entry: JournalEntry): Promise<{ entry: JournalEntry; file: string }> {
  let current = { entry, file };
  for (
    let polls = 0;
    !current.entry.id && stillRuns(current.entry.pid, current.entry.started) && polls < ORPHAN_POLLS;
    polls++
  ) {
    await orphanPoll.sleep(ORPHAN_POLL_MS);
    current = currentEntry(file, entry) ?? current;
  }
  return current;
}
