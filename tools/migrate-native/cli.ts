#!/usr/bin/env node
/**
 * `guardrails-migrate-to-native [--stack <name>] [--cwd <dir>] [--yes]`: moves a stack from
 * the dynamic face to the native face, with no call to the service (see src/export/migrate.ts).
 */
import { parseArgs } from "node:util";
import { failureText, migrateToNative } from "../../src/export";

const USAGE = `usage: guardrails-migrate-to-native [--stack <name>] [--cwd <dir>] [--yes]

Moves the stack's Guardrail, GuardrailMemberAssignment and GuardrailKeyAssignment resources
from the dynamic face (pulumi-nodejs:dynamic/guardrails:*) to the native provider
(guardrails:index:*), keeping each one's name, parent, protect flag and id. Makes no write
call to the service: it runs

  pulumi stack export                        (the plan is read from the state alone)
  pulumi import --file <generated file>      (the native provider reads each resource)
  pulumi state delete <dynamic urns>         (the sets first, then the guardrails)

Without --yes it stops after pulumi import --preview-only and prints the deletes.
Afterwards switch the program to the native classes, with the same names: pulumi preview
then shows no change. The native plugin (pulumi-resource-guardrails) and the provider's key
(GUARDRAILS_API_KEY or guardrails:apiKey) must be available, as for any pulumi import.

  --stack <name>   the stack (default: the current stack)
  --cwd <dir>      the project folder (default: the current folder)
  --yes            import and drop the dynamic resources (default: preview only)
`;

const say = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        stack: { type: "string" },
        cwd: { type: "string" },
        yes: { type: "boolean", short: "y" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (err) {
    say(`guardrails-migrate-to-native: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  return migrateToNative({ stack: values.stack, cwd: values.cwd, yes: values.yes ?? false, say });
}

main().then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    say(`guardrails-migrate-to-native: ${failureText(err)}`);
    process.exitCode = 1;
  },
);
