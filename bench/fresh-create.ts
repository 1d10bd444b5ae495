/**
 * The first create in a fresh process (issue 43), as `pulumi up` runs it: the engine starts a
 * provider process that has loaded nothing, the shim loads the package at its first call, the
 * provider is configured (which arms the key and URL check) and creates one member set. Run by
 * latency.ts as a child process, one per row; it answers one line of JSON on stdout: the time
 * spent loading the package and the time from before that load to the end of the create.
 * Only node's own modules are loaded before the clock starts.
 * argv: a JSON object {url, key, guardrailId, n, concurrency}.
 */
interface FreshArgs {
  url: string;
  key: string;
  guardrailId: string;
  n: number;
  concurrency: number;
}

/** What the child measured, in ms. */
export interface FreshTimes {
  loadMs: number;
  totalMs: number;
}

/** The same ids latency.ts seeds, built before the clock starts (the engine hands them over ready). */
const memberIds = (n: number) => Array.from({ length: n }, (_, i) => `user_${String(i).padStart(6, "0")}`);

async function main(): Promise<void> {
  const args = JSON.parse(process.argv[2] ?? "{}") as FreshArgs;
  const news = {
    __provider: "p",
    guardrailId: args.guardrailId,
    exclusive: false,
    members: Object.fromEntries(memberIds(args.n).map((id) => [id, true])),
  };
  const config: Record<string, string> = {
    "guardrails:apiKey": args.key,
    "guardrails:baseUrl": args.url,
    "guardrails:maxConcurrency": String(args.concurrency),
  };
  const t0 = performance.now();
  // What the shim requires as `pulumi-guardrails/internal` (src/dynamic/shim.ts), from this build.
  const internal = require("../src/dynamic/internal") as typeof import("../src/dynamic/internal");
  const loadMs = performance.now() - t0;
  internal.configure((k) => config[k]);
  await internal.memberAssignment.create(news);
  const times: FreshTimes = { loadMs, totalMs: performance.now() - t0 };
  process.stdout.write(`${JSON.stringify(times)}\n`);
}

main().then(
  () => process.exit(0),
  (err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
