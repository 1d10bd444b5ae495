#!/usr/bin/env node
/**
 * `guardrails-access explain | who`: what a member or API key can actually use after every
 * layer applies, and who can reach a model, a provider or a data region (issue 41), from the
 * live service (GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL, as the provider) or a stack's state.
 * A thin CLI over `pulumi-guardrails/access`; docs/guides/effective-access-command.md.
 */
import { parseArgs } from "node:util";
import {
  type AccessSource,
  AccessUsageError,
  checkOnce,
  checkQuery,
  checkSubject,
  checkWorkspace,
  connectionFromEnv,
  explainSubject,
  failureText,
  readState,
  redact,
  renderExplain,
  renderJson,
  renderWho,
  serviceSource,
  shown,
  stateSource,
  whoCanReach,
} from "../../src/access";

/** Every line for stderr, with the API key masked. */
const say = (text: string) => process.stderr.write(redact(text, process.env.GUARDRAILS_API_KEY));

/** Exit codes (docs/guides/effective-access-command.md). */
const EXIT = { allowed: 0, denied: 1, usage: 2, failed: 3, notCertain: 4 } as const;

const USAGE = `usage: guardrails-access explain (--member ID | --key HASH [--owner MEMBER_ID])
                                [--model M] [--provider P] [--region R] [options]
       guardrails-access who (--model M | --provider P | --region R ...) [--all] [options]

explain  whether a member or key can reach a model, provider or data region, and the layers that
         decide; with none of --model/--provider/--region, its whole effective access
who      every member and key of the workspace that can reach it (--all: and those that
         cannot, each with what denies it; --json always lists them)

  --workspace W        workspace id or slug (default: the organization's only one)
  --owner MEMBER_ID    explain --key: the member who owns the key (the service does not say;
                       without it the key's owner's layers are left out)
  --stack-state FILE   read the layers from \`pulumi stack export\` output (- for stdin), not the
                       service: only the layers the stack manages are known
  --current-stack      the same, from the current stack through the pulumi CLI (--stack NAME)
  --json               the answer as JSON (shape: docs/guides/effective-access-command.md)

exit: 0 allowed (or answered), 1 denied, 2 bad usage, 3 could not answer,
      4 the verdict depends on a layer that is not known (a key's owner when the key's own
        layers allow; any verdict from a stack's state): "allowed" in the output is then an
        upper bound, never a grant
Reads GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL (not with --stack-state). Makes no write call.
`;

const OPTIONS = {
  member: { type: "string" },
  key: { type: "string" },
  owner: { type: "string" },
  model: { type: "string" },
  provider: { type: "string" },
  region: { type: "string" },
  workspace: { type: "string" },
  "stack-state": { type: "string" },
  "current-stack": { type: "boolean" },
  stack: { type: "string" },
  json: { type: "boolean" },
  all: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

/** Flags that belong to the other command, named. */
function misplaced(command: string, values: Values): string | undefined {
  const other = command === "explain" ? ["all"] : ["member", "key", "owner"];
  const given = other.filter((o) => values[o as keyof Values] !== undefined);
  return given.length > 0 ? `${command} takes no --${given.join(", --")}` : undefined;
}

async function source(values: Values): Promise<AccessSource> {
  if (values["stack-state"] !== undefined && values["current-stack"])
    throw new AccessUsageError("give --stack-state FILE or --current-stack, not both");
  if (values.stack !== undefined && !values["current-stack"])
    throw new AccessUsageError(`--stack ${shown(values.stack)} names a stack for --current-stack; add it`);
  if (values["stack-state"] !== undefined) return stateSource(await readState({ file: values["stack-state"] }));
  if (values["current-stack"]) return stateSource(await readState({ stack: values.stack }));
  return serviceSource(connectionFromEnv());
}

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ allowPositionals: true, options: OPTIONS, tokens: true });
    checkOnce(parsed.tokens.flatMap((t) => (t.kind === "option" ? [t.name] : [])));
  } catch (err) {
    say(`guardrails-access: ${(err as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, ...extra] = positionals;
  if (command !== "explain" && command !== "who") {
    say(
      `guardrails-access: ${command === undefined ? "give a command" : `unknown command ${shown(command)}`}: explain or who\n\n${USAGE}`,
    );
    return EXIT.usage;
  }
  const problem = extra.length > 0 ? `unexpected ${extra.map(shown).join(" ")}` : misplaced(command, values);
  if (problem) {
    say(`guardrails-access ${command}: ${problem}\n\n${USAGE}`);
    return EXIT.usage;
  }
  return command === "explain" ? explainCommand(values) : whoCommand(values);
}

async function explainCommand(values: Values): Promise<number> {
  const { subject, workspaceId } = checkSubject(values);
  const query = checkQuery(values);
  const answer = await explainSubject(await source(values), subject, query, workspaceId);
  process.stdout.write(values.json ? renderJson(answer) : renderExplain(answer));
  if (!answer.verdict) return EXIT.allowed;
  if (!answer.verdict.certain) return EXIT.notCertain;
  return answer.verdict.allowed ? EXIT.allowed : EXIT.denied;
}

async function whoCommand(values: Values): Promise<number> {
  const workspaceId = checkWorkspace(values.workspace);
  const query = checkQuery(values);
  if (Object.keys(query).length === 0)
    throw new AccessUsageError("who needs --model M, --provider P or --region R (every one given must pass)");
  const answer = await whoCanReach(await source(values), query, workspaceId);
  process.stdout.write(values.json ? renderJson(answer) : renderWho(answer, values.all ?? false));
  return EXIT.allowed;
}

// exitCode, not exit(): a long answer must drain into its pipe first.
main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    // Bad usage is exit 2; an expected failure is one line; a bug keeps its stack trace (key masked).
    say(`guardrails-access: ${failureText(err)}\n`);
    process.exitCode = err instanceof AccessUsageError ? EXIT.usage : EXIT.failed;
  },
);
