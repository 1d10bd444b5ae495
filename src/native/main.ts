/**
 * `pulumi-resource-guardrails`: the native provider plugin's entry point. The engine starts it
 * with its own address as the argument and reads the port from the first stdout line.
 */
import { logToEngine } from "./engine-log";
import { packageSchema } from "./schema";
import { serve } from "./server";

// From dist/src/native/main.js: the package root's package.json, in a checkout and in the npm
// package alike; the plugin bundle (scripts/plugin-pack.mjs) inlines it, so a plugin folder needs none.
const { version } = require("../../../package.json") as { version: string };

if (process.argv[2] === "--print-schema") {
  // The schema without the engine (what GetSchema serves).
  process.stdout.write(`${packageSchema()}\n`);
} else {
  // The engine's address is the first argument (the plugin protocol).
  if (process.argv[2]) logToEngine(process.argv[2]);
  void start();
}

async function start() {
  await serve(version).catch((err: unknown) => {
    console.error(`pulumi-resource-guardrails: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  });
}
