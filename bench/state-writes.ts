/**
 * What one CLI command wrote to the file backend: the checkpoint's size, how much of it changed
 * (the span outside the common prefix and suffix), and all bytes written under the backend
 * folder (the checkpoint, its backup and the history copies).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

export interface StateWrites {
  checkpointBytes: number;
  changedBytes: number;
  writtenBytes: number;
}

type Snapshot = Map<string, { size: number; mtimeMs: number }>;

function files(dir: string, out: Snapshot = new Map()): Snapshot {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files(path, out);
    else if (entry.isFile()) {
      const { size, mtimeMs } = statSync(path);
      out.set(path, { size, mtimeMs });
    }
  }
  return out;
}

/** The stack's checkpoint file in a `file://` backend folder. */
function checkpoint(backend: string): string | undefined {
  return [...files(backend).keys()].find((p) => /\/\.pulumi\/stacks\/[^/]+\/[^/]+\.json$/.test(p));
}

/** Call before a command; `finish()` after it answers what it wrote. */
export function watchStateWrites(backend: string): { finish(): StateWrites } {
  const before = files(backend);
  const path = checkpoint(backend);
  const oldText = path ? readFileSync(path, "utf8") : "";
  return {
    finish() {
      const after = files(backend);
      let writtenBytes = 0;
      for (const [p, f] of after) {
        const b = before.get(p);
        if (!b || b.size !== f.size || b.mtimeMs !== f.mtimeMs) writtenBytes += f.size;
      }
      const now = checkpoint(backend);
      const newText = now ? readFileSync(now, "utf8") : "";
      return {
        checkpointBytes: Buffer.byteLength(newText),
        changedBytes: changedBytes(oldText, newText),
        writtenBytes,
      };
    },
  };
}

/**
 * Bytes of `next` outside the longest common prefix and suffix it shares with `prev`. The file
 * backend writes the checkpoint as one line, so a line comparison would call it all changed;
 * this counts the span that really differs (a one-member edit: a few dozen bytes).
 */
export function changedBytes(prev: string, next: string): number {
  const a = Buffer.from(prev);
  const b = Buffer.from(next);
  const max = Math.min(a.length, b.length);
  let head = 0;
  while (head < max && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < max - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return b.length - head - tail;
}
