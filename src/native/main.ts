/**
 * `pulumi-resource-guardrails`: the native provider plugin's entry point. The engine starts it
 * with its own address as the argument and reads the port from the first stdout line.
 */
import { serve } from "./server";

const { version } = require("../../../package.json") as { version: string };

serve(version).catch((err: unknown) => {
  console.error(`pulumi-resource-guardrails: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
