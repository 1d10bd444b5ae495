/**
 * Config that tells the truth, checked in the user's program when the first resource of this
 * package is constructed (the program's log always reaches the CLI, and `pulumi preview`
 * runs it): a plain-text API key and unknown `guardrails:*` keys (with a did-you-mean) warn;
 * a missing key or URL, numbers that are not positive integers (quoting the text given, never
 * a key) and a base URL that cannot work stop the program before any call, so a CI preview
 * with broken secrets fails instead of passing and leaving `up` to fail (issue 24).
 */
import * as pulumi from "@pulumi/pulumi";
import { malformedSettings, plainKeyWarning, unknownKeyWarnings } from "../core/settings/config-problems";
import { notConfigured } from "../core/settings/config";
import { UserError } from "../core/user-error";

export interface ConfigReport {
  /** Shown as warnings; the run goes on. */
  warnings: string[];
  /** Shown as errors; the run fails before any call. */
  errors: string[];
}

/** The problems of a stack config (`namespace:key` -> value) and environment. */
export function configProblems(
  config: Record<string, string>,
  isSecret: (key: string) => boolean,
  env: NodeJS.ProcessEnv,
): ConfigReport {
  const names = Object.keys(config)
    .filter((k) => k.startsWith("guardrails:"))
    .map((k) => k.slice("guardrails:".length));
  const warnings = unknownKeyWarnings(names);
  if (config["guardrails:apiKey"] && !isSecret("guardrails:apiKey"))
    warnings.push(
      plainKeyWarning(
        "Pulumi.<stack>.yaml, in the state (as an input of the default pulumi-nodejs provider), in `pulumi stack export` and in `pulumi preview --json`",
      ),
    );
  // The provider process sees the same stack config and environment as this program.
  const missing = notConfigured(
    config["guardrails:apiKey"] || env.GUARDRAILS_API_KEY,
    config["guardrails:baseUrl"] || env.GUARDRAILS_BASE_URL,
  );
  const byName = Object.fromEntries(names.map((n) => [n, config[`guardrails:${n}`]]));
  return {
    warnings,
    errors: [...(missing ? [missing] : []), ...malformedSettings(byName, env).map((p) => p.message)],
  };
}

let reported = false;

/** Logs the stack's config problems once per program run. */
export function reportConfigOnce(): void {
  if (reported) return;
  reported = true;
  const runtime = pulumi.runtime as unknown as { isConfigSecret?: (k: string) => boolean };
  const secretKeys = (): string[] => {
    try {
      return JSON.parse(process.env.PULUMI_CONFIG_SECRET_KEYS ?? "[]") as string[];
    } catch {
      return [];
    }
  };
  const isSecret = (k: string) => (runtime.isConfigSecret ? runtime.isConfigSecret(k) : secretKeys().includes(k));
  const { warnings, errors } = configProblems(pulumi.runtime.allConfig(), isSecret, process.env);
  for (const w of warnings) void pulumi.log.warn(`pulumi-guardrails: ${w}`);
  // A UserError ends the program (and so `pulumi preview`) with the message alone, no stack trace.
  if (errors.length > 0)
    throw new UserError(
      errors.map((e) => (e.startsWith("pulumi-guardrails") ? e : `pulumi-guardrails: ${e}`)).join("\n"),
    );
}
