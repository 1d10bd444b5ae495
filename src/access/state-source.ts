/**
 * The layers of a stack's state as a source for `guardrails-access` (issue 41): a file that
 * `pulumi stack export` wrote (`-`: standard input), or the current stack, exported through the
 * pulumi CLI in memory. The current stack is read without `--show-secrets`: what the program
 * holds secret stays sealed and is said to be unknown (state-layers.ts); a person who wants
 * secret id lists counted exports with `--show-secrets` to a file, and their ids are still
 * never shown.
 *
 * From a state, the layers are those the stack manages; every answer says which layers are not
 * known, and no verdict is certain (answers.ts).
 */
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { factsOf } from "../core/data-sources/access-org";
import { subjectsOf } from "../core/data-sources/access-org-read";
import { shown } from "../core/args/messages";
import { idText } from "../core/text/terminal";
import { UserError } from "../core/user-error";
import { StateLayers } from "./state-layers";
import type { AccessSource } from "./source";

const NOT_MANAGED =
  "from a stack's state only the layers the stack manages are known: guardrails, assignments and policies made elsewhere (and the workspace default, unless the stack has its WorkspaceDefaultGuardrail) are not, so no answer is certain; the live service (without --stack-state) knows every layer";

/** Where the state comes from: a file (`-`: stdin), or the current stack through `pulumi`. */
export type StateFrom = { file: string } | { stack: string | undefined; cwd?: string; pulumi?: string };

function parsed(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    // Not the parser's message: it quotes the text, raw, and a --show-secrets export holds secrets.
    const at = /at position (\d+)/.exec((err as Error).message)?.[1];
    throw new UserError(
      `${what}: not JSON${at ? ` (at character ${at})` : ""}; expected what \`pulumi stack export\` prints`,
    );
  }
}

function exported(from: { stack: string | undefined; cwd?: string; pulumi?: string }) {
  const args = ["stack", "export", ...(from.stack ? ["--stack", from.stack] : [])];
  return new Promise<unknown>((resolve, reject) => {
    const child = spawn(from.pulumi ?? "pulumi", args, { cwd: from.cwd, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d));
    child.on("error", (err) => reject(new UserError(`cannot run pulumi: ${err.message}`, { cause: err })));
    child.on("close", (code) =>
      code === 0
        ? resolve(parsed(out, "pulumi stack export"))
        : reject(new UserError(`pulumi stack export failed (exit ${code}); see above`)),
    );
  });
}

/** Largest state file read: a `pulumi stack export` of 100,000 members is a few MB. */
const MAX_STATE_BYTES = 256 * 1024 * 1024;

/** Refuses a FIFO, a device or a file too large before it is opened: reading one could block or fill memory. */
function regularFile(file: string): void {
  const st = statSync(file);
  if (!st.isFile())
    throw new UserError(
      `--stack-state ${shown(file)}: not a regular file; give a file that \`pulumi stack export\` wrote, or - for standard input`,
    );
  if (st.size > MAX_STATE_BYTES)
    throw new UserError(
      `--stack-state ${shown(file)}: ${st.size} bytes, more than the ${MAX_STATE_BYTES / 1024 / 1024} MiB read`,
    );
}

/** The state document. */
export async function readState(from: StateFrom): Promise<unknown> {
  if ("file" in from) {
    let text: string;
    try {
      if (from.file !== "-") regularFile(from.file);
      text = readFileSync(from.file === "-" ? 0 : from.file, "utf8");
    } catch (err) {
      if (err instanceof UserError) throw err;
      throw new UserError(
        `--stack-state ${shown(from.file)}: cannot read it (${(err as NodeJS.ErrnoException).code ?? "error"})`,
      );
    }
    return parsed(text, `--stack-state ${shown(from.file)}`);
  }
  return exported(from);
}

/** A source over a state document. */
export function stateSource(state: unknown): AccessSource {
  const layers = new StateLayers(state);
  const notes = [NOT_MANAGED];
  const workspace = (ref: string | undefined) => {
    const all = layers.workspaces();
    if (ref !== undefined) return ref.toLowerCase();
    if (all.length === 1) return all[0]!;
    throw new UserError(
      `--workspace is required: the stack's resources name ${all.length === 0 ? "no workspace" : `${all.length} workspaces (${all.map((w) => idText(w)).join(", ")})`}`,
    );
  };
  const withUnknown = () => {
    notes.splice(1, notes.length, ...[...new Set(layers.unknown)].map((u) => `not known: ${u}`));
  };
  return {
    kind: "state",
    notes,
    hides: (id) => layers.secretIds.has(id),
    facts: async (subject, ref) => {
      const read = factsOf(layers.org(workspace(ref)), subject);
      withUnknown();
      return read;
    },
    org: async (ref) => {
      const org = layers.org(workspace(ref));
      withUnknown();
      return { org, ...subjectsOf(org) };
    },
  };
}
