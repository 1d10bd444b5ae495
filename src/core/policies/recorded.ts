/**
 * What ends a policy create's journal entry (resource/create-journal.ts): the engine recorded the
 * id, which it shows by calling diff, read, update or delete with it.
 */
import { JournalHandle } from "../resource/create-journal";
import type { Lifecycle } from "../results";

/**
 * `lc` whose diff, read, update and delete first drop the journal entries of the id they are
 * given: the engine recorded it, so there is no interrupted create of it left to recover. An
 * import id `<workspace>/<id>` (and its `?{…}` of secret names, import-id.ts) names the record
 * by its last part.
 */
export function forgettingRecorded(lc: Lifecycle): Lifecycle {
  const recorded = (id: string) => JournalHandle.forget(id.split("?")[0]!.split("/").pop() ?? id);
  return {
    ...lc,
    diff: (id, olds, news) => {
      recorded(id);
      return lc.diff(id, olds, news);
    },
    read: (id, props) => {
      recorded(id);
      return lc.read(id, props);
    },
    update: (id, olds, news) => {
      recorded(id);
      return lc.update(id, olds, news);
    },
    delete: (id, props) => {
      recorded(id);
      return lc.delete(id, props);
    },
  };
}
