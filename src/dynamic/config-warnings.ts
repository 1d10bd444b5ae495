/**
 * Config that tells the truth, checked in the user's program when the first resource of this
 * package is constructed (the program's log always reaches the CLI, and `pulumi preview`
 * runs it): a plain-text API key and unknown `guardrails:*` keys (with a did-you-mean) warn;
 * a missing key or URL, numbers that are not positive integers (quoting the text given, never
 * a key) and a base URL that cannot work stop the program before any call, so a CI preview
 * with broken secrets fails instead of passing and leaving `up` to fail (issue 24).
 */
import * as pulumi from "@pulumi/pulumi";
import { checkBaseUrl } from "../core/client/base-url";
import { KNOWN_KEYS, NUMERIC_MAX, NUMERIC_SETTINGS, notConfigured, parsePositiveInt } from "../core/settings/config";
import { closest } from "../core/args/messages";
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
  const report: ConfigReport = { warnings: [], errors: [] };
  for (const key of Object.keys(config).sort()) {
    if (!key.startsWith("guardrails:")) continue;
    const name = key.slice("guardrails:".length);
    if ((KNOWN_KEYS as readonly string[]).includes(name)) continue;
    const guess = closest(name, KNOWN_KEYS);
    report.warnings.push(
      `unknown config key ${key} is ignored; ${guess ? `did you mean guardrails:${guess}?` : `pulumi-guardrails reads ${KNOWN_KEYS.map((k) => `guardrails:${k}`).join(", ")}`}`,
    );
  }
  if (config["guardrails:apiKey"] && !isSecret("guardrails:apiKey")) {
    report.warnings.push(
      "guardrails:apiKey is plain text: it is stored unencrypted in Pulumi.<stack>.yaml, in the state (as an input of the default pulumi-nodejs provider), " +
        "in `pulumi stack export` and in `pulumi preview --json`. Make it a secret with `pulumi config set --secret guardrails:apiKey <key>`, " +
        "or better, `pulumi config rm guardrails:apiKey` and set GUARDRAILS_API_KEY in the environment",
    );
  }
  // The provider process sees the same stack config and environment as this program.
  const missing = notConfigured(
    config["guardrails:apiKey"] || env.GUARDRAILS_API_KEY,
    config["guardrails:baseUrl"] || env.GUARDRAILS_BASE_URL,
  );
  if (missing) report.errors.push(missing);
  const keys = [config["guardrails:apiKey"], env.GUARDRAILS_API_KEY];
  for (const [name, envVar] of Object.entries(NUMERIC_SETTINGS)) {
    const fromConfig = config[`guardrails:${name}`];
    const max = NUMERIC_MAX[name as keyof typeof NUMERIC_SETTINGS];
    try {
      if (fromConfig !== undefined) parsePositiveInt(fromConfig, `guardrails:${name}`, keys, max);
      else parsePositiveInt(env[envVar], `the env var ${envVar}`, keys, max);
    } catch (err) {
      report.errors.push((err as Error).message);
    }
  }
  const baseUrl = config["guardrails:baseUrl"] || env.GUARDRAILS_BASE_URL;
  if (baseUrl) {
    try {
      checkBaseUrl(baseUrl, keys);
    } catch (err) {
      report.errors.push(
        `${config["guardrails:baseUrl"] ? "guardrails:baseUrl" : "the env var GUARDRAILS_BASE_URL"}: ${(err as Error).message}`,
      );
    }
  }
  return report;
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
