/**
 * Where credentials and settings come from, validated once per provider process:
 * stack config (`guardrails:apiKey`, a secret, and `guardrails:baseUrl`), handed to the
 * dynamic provider's `configure` by the engine, else the env vars GUARDRAILS_API_KEY and
 * GUARDRAILS_BASE_URL. Nothing here is ever serialized into state.
 */
import { DEFAULT_MAX_CONCURRENCY, MAX_MAX_CONCURRENCY, processBudget } from "../client/budget";
import { GuardrailsClient } from "../client/client";
import type { RetryOptions } from "../client/retry";
import { reportRetry } from "../client/retry-report";
import { shownSetting } from "../client/redaction";
import { firstTime, forgetSaid } from "./said-once";
import { UserError } from "../user-error";
import { CHOICE_SETTINGS, resolveMovesLookup, type MovesLookup } from "./moves-lookup";

/** The settings a client is made from, with where the key and URL came from (for messages). */
export type ResolvedSettings = { apiKey: string; baseUrl: string } & ProviderSettings & {
    apiKeySource: string;
    baseUrlSource: string;
  };

export interface ProviderSettings {
  /** The management API key (a secret). Config `guardrails:apiKey` or GUARDRAILS_API_KEY. */
  apiKey?: string | undefined;
  /** The management API's base URL. Config `guardrails:baseUrl` or GUARDRAILS_BASE_URL. */
  baseUrl?: string | undefined;
  /** Attempts per idempotent call. Config `guardrails:maxAttempts` or GUARDRAILS_MAX_ATTEMPTS. @default 5 */
  maxAttempts?: number | undefined;
  /** Per-request timeout, ms. Config `guardrails:timeoutMs` or GUARDRAILS_TIMEOUT_MS. @default 30000 */
  timeoutMs?: number | undefined;
  /** Ids per bulk assign/unassign call. Config `guardrails:maxBulk` or GUARDRAILS_MAX_BULK. @default 500 (the service's maximum) */
  maxBulk?: number | undefined;
  /** Requests in flight per provider process. Config `guardrails:maxConcurrency` or GUARDRAILS_MAX_CONCURRENCY. @default 4 */
  maxConcurrency?: number | undefined;
  /**
   * Skip the one read that checks the key and URL when the provider is configured, for a preview
   * without the service (offline, or a CI job given no key). Config `guardrails:skipCredentialsCheck`
   * or GUARDRAILS_SKIP_CREDENTIALS_CHECK (`true` or `false`). @default false
   */
  skipCredentialsCheck?: boolean | undefined;
  /** When a set's `check` looks up where the ids it adds sit now (one walk of the organization's assignments per provider process): `full`, `preview-only` or `off`. Config `guardrails:movesLookup` or GUARDRAILS_MOVES_LOOKUP. @default "full" */
  movesLookup?: MovesLookup | undefined;
}

/** Numeric settings, by config key suffix and env var. */
export const NUMERIC_SETTINGS = {
  maxAttempts: "GUARDRAILS_MAX_ATTEMPTS",
  timeoutMs: "GUARDRAILS_TIMEOUT_MS",
  maxBulk: "GUARDRAILS_MAX_BULK",
  maxConcurrency: "GUARDRAILS_MAX_CONCURRENCY",
} as const;
/** Settings that are `true` or `false`, by config key suffix and env var. */
export const BOOLEAN_SETTINGS = { skipCredentialsCheck: "GUARDRAILS_SKIP_CREDENTIALS_CHECK" } as const;
/** Upper bounds of the numeric settings that have one. */
export const NUMERIC_MAX: Partial<Record<keyof typeof NUMERIC_SETTINGS, number>> = {
  maxConcurrency: MAX_MAX_CONCURRENCY,
};
/** Every `guardrails:*` key this package reads. */
export const KNOWN_KEYS = [
  "apiKey",
  "baseUrl",
  ...Object.keys(NUMERIC_SETTINGS),
  ...Object.keys(BOOLEAN_SETTINGS),
  ...Object.keys(CHOICE_SETTINGS),
] as const;

interface StackSettings {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  /** Numbers as the text that was given, so a bad one is quoted back. */
  numbers: Partial<Record<keyof typeof NUMERIC_SETTINGS, string>>;
  /** Flags and choices as the text that was given, so a bad one is quoted back. */
  flags: Partial<Record<keyof typeof BOOLEAN_SETTINGS, string>>;
  choices: Partial<Record<keyof typeof CHOICE_SETTINGS, string>>;
}

/**
 * A positive integer from its text, or an error quoting the text (never a key: `keys` are the
 * configured ones) and naming where it came from. `undefined` when not set.
 */
export function parsePositiveInt(
  text: string | undefined,
  source: string,
  keys: readonly (string | undefined)[] = [],
  max?: number,
): number | undefined {
  if (text === undefined || text === "") return undefined;
  const value = Number(text.trim());
  if (!/^\s*\d+\s*$/.test(text) || !Number.isSafeInteger(value) || value < 1 || (max !== undefined && value > max)) {
    const expected = max === undefined ? "a positive integer" : `an integer from 1 to ${max}`;
    throw new UserError(`${source} must be ${expected} (got ${shownSetting(text, keys)})`);
  }
  return value;
}

/**
 * `true` or `false` (any case, blanks around ignored) from its text, or an error quoting the text
 * (never a key) and naming where it came from. `undefined` when not set.
 */
export function parseBoolean(
  text: string | undefined,
  source: string,
  keys: readonly (string | undefined)[] = [],
): boolean | undefined {
  if (text === undefined || text === "") return undefined;
  const t = text.trim().toLowerCase();
  if (t === "true") return true;
  if (t === "false") return false;
  throw new UserError(`${source} must be true or false (got ${shownSetting(text, keys)})`);
}

/**
 * The message for a missing key or URL, naming both ways to set each; undefined when both are
 * set. Checked in the program at preview (config-warnings.ts) and by the provider.
 */
export function notConfigured(apiKey: string | undefined, baseUrl: string | undefined): string | undefined {
  const missing: string[] = [];
  if (!apiKey)
    missing.push("the API key: `pulumi config set --secret guardrails:apiKey <key>` or the env var GUARDRAILS_API_KEY");
  if (!baseUrl)
    missing.push("the service URL: `pulumi config set guardrails:baseUrl <url>` or the env var GUARDRAILS_BASE_URL");
  return missing.length > 0 ? `pulumi-guardrails is not configured; set ${missing.join(", and ")}` : undefined;
}

/** Sets the process's one budget of requests in flight (every client shares it) from the settings. */
export function useConcurrency(s: Pick<ProviderSettings, "maxConcurrency">): void {
  processBudget.setLimit(s.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
}

/**
 * One provider instance's config: the stack config its face hands over (`configure`), the env
 * vars as the fallback, and the one client made from them. A face makes one per provider
 * instance and hands it to the lifecycles it serves (a `Connection`, core/connection.ts).
 * Nothing is read before the first call that needs it.
 */
export class ProviderConfig {
  private fromStack: StackSettings = { numbers: {}, flags: {}, choices: {} };
  private cached: { key: string; client: GuardrailsClient } | undefined;

  /** Takes the stack config (`guardrails:*` keys) the face was handed; the env vars stay the fallback. */
  configure(get: (key: string) => string | undefined): void {
    // The settings given as text (an empty value is not given), so a bad one is quoted back.
    const given = (names: string[]) =>
      Object.fromEntries(names.map((n) => [n, get(`guardrails:${n}`)]).filter(([, v]) => v !== undefined && v !== ""));
    this.fromStack = {
      apiKey: get("guardrails:apiKey") || undefined,
      baseUrl: get("guardrails:baseUrl") || undefined,
      numbers: given(Object.keys(NUMERIC_SETTINGS)),
      flags: given(Object.keys(BOOLEAN_SETTINGS)),
      choices: given(Object.keys(CHOICE_SETTINGS)),
    };
  }

  /** Resolved settings (and where the key and URL came from), or an error that names both ways to set what is missing. */
  settings(env: NodeJS.ProcessEnv = process.env): ResolvedSettings {
    const fromStack = this.fromStack;
    const apiKey = fromStack.apiKey ?? env.GUARDRAILS_API_KEY;
    const baseUrl = fromStack.baseUrl ?? env.GUARDRAILS_BASE_URL;
    const missing = notConfigured(apiKey, baseUrl);
    if (missing) {
      // The first failure of the run says how to fix it; the rest point back to it (said-once.ts).
      throw new UserError(
        firstTime("not configured")
          ? missing
          : "pulumi-guardrails is not configured (the first error of this run says what to set)",
      );
    }
    const keys = [apiKey, env.GUARDRAILS_API_KEY];
    const number = (name: keyof typeof NUMERIC_SETTINGS) =>
      fromStack.numbers[name] !== undefined
        ? parsePositiveInt(fromStack.numbers[name], `guardrails:${name}`, keys, NUMERIC_MAX[name])
        : parsePositiveInt(
            env[NUMERIC_SETTINGS[name]],
            `the env var ${NUMERIC_SETTINGS[name]}`,
            keys,
            NUMERIC_MAX[name],
          );
    const flag = (name: keyof typeof BOOLEAN_SETTINGS) =>
      fromStack.flags[name] !== undefined
        ? parseBoolean(fromStack.flags[name], `guardrails:${name}`, keys)
        : parseBoolean(env[BOOLEAN_SETTINGS[name]], `the env var ${BOOLEAN_SETTINGS[name]}`, keys);
    const apiKeySource = fromStack.apiKey ? "stack config guardrails:apiKey" : "the env var GUARDRAILS_API_KEY";
    const baseUrlSource = fromStack.baseUrl ? "stack config guardrails:baseUrl" : "the env var GUARDRAILS_BASE_URL";
    return {
      apiKey: apiKey!,
      baseUrl: baseUrl!,
      maxAttempts: number("maxAttempts"),
      timeoutMs: number("timeoutMs"),
      maxBulk: number("maxBulk"),
      maxConcurrency: number("maxConcurrency"),
      skipCredentialsCheck: flag("skipCredentialsCheck") ?? false,
      movesLookup: resolveMovesLookup(fromStack.choices.movesLookup, env, keys) ?? "full",
      apiKeySource,
      baseUrlSource,
    };
  }

  /** The client of these settings, made once (and again only when they change), sharing one keep-alive pool. */
  client(): GuardrailsClient {
    const s = this.settings();
    useConcurrency(s);
    const key = JSON.stringify([s.baseUrl, s.apiKey, s.maxAttempts, s.timeoutMs]);
    if (this.cached?.key !== key) {
      const retry: Partial<RetryOptions> = s.maxAttempts ? { maxAttempts: s.maxAttempts } : {};
      this.cached = {
        key,
        client: new GuardrailsClient({
          baseUrl: s.baseUrl,
          apiKey: s.apiKey,
          retry,
          retryHooks: { onRetry: reportRetry },
          ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}),
        }),
      };
    }
    return this.cached.client;
  }

  /** Forgets the stack config and closes the client (tests; a provider instance shut down). */
  reset(): void {
    this.fromStack = { numbers: {}, flags: {}, choices: {} };
    void this.cached?.client.close();
    this.cached = undefined;
  }
}

/**
 * The dynamic face's config: the dynamic provider runs one provider per process (the engine's
 * Node host, configured by the shim's `configure`), and its data sources run in the program.
 * Made empty at import; nothing is read until a call needs it.
 */
export const processConfig = new ProviderConfig();

/** Called by the provider shim's `configure` with the stack config the engine sends. */
export function configure(get: (key: string) => string | undefined): void {
  processConfig.configure(get);
}

/** The process config's settings (`ProviderConfig.settings`), e.g. for a tool that reads only the env. */
export function resolveSettings(env: NodeJS.ProcessEnv = process.env): ResolvedSettings {
  return processConfig.settings(env);
}

/** For tests: forget stack config, the cached client and the budget's limit. */
export function resetConfiguration(): void {
  processConfig.reset();
  processBudget.setLimit(DEFAULT_MAX_CONCURRENCY);
  forgetSaid();
}
