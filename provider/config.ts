/**
 * Where credentials and settings come from, validated once per provider process:
 * stack config (`guardrails:apiKey`, a secret, and `guardrails:baseUrl`), handed to the
 * dynamic provider's `configure` by the engine, else the env vars GUARDRAILS_API_KEY and
 * GUARDRAILS_BASE_URL. Nothing here is ever serialized into state.
 */
import { GuardrailsClient } from "./client/client";
import type { RetryOptions } from "./client/retry";
import { reportRetry } from "./client/retry-report";

export interface ProviderSettings {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  /** Attempts per idempotent call. Config `guardrails:maxAttempts` or GUARDRAILS_MAX_ATTEMPTS. @default 5 */
  maxAttempts?: number | undefined;
  /** Per-request timeout, ms. Config `guardrails:timeoutMs` or GUARDRAILS_TIMEOUT_MS. @default 30000 */
  timeoutMs?: number | undefined;
  /** Ids per bulk assign/unassign call. Config `guardrails:maxBulk` or GUARDRAILS_MAX_BULK. @default 500 (the service's maximum) */
  maxBulk?: number | undefined;
}

let fromStack: ProviderSettings = {};
let cached: { key: string; client: GuardrailsClient } | undefined;

/** Called by the provider shim's `configure` with the stack config the engine sends. */
export function configure(get: (key: string) => string | undefined): void {
  const num = (v: string | undefined) => (v === undefined || v === "" ? undefined : Number(v));
  fromStack = {
    apiKey: get("guardrails:apiKey") || undefined,
    baseUrl: get("guardrails:baseUrl") || undefined,
    maxAttempts: num(get("guardrails:maxAttempts")),
    timeoutMs: num(get("guardrails:timeoutMs")),
    maxBulk: num(get("guardrails:maxBulk")),
  };
}

/** For tests: forget stack config and the cached client. */
export function resetConfiguration(): void {
  fromStack = {};
  void cached?.client.close();
  cached = undefined;
}

/** Resolved settings, or an error that names both ways to set what is missing. */
export function resolveSettings(env: NodeJS.ProcessEnv = process.env): Required<Pick<ProviderSettings, "apiKey" | "baseUrl">> & ProviderSettings {
  const apiKey = fromStack.apiKey ?? env.GUARDRAILS_API_KEY;
  const baseUrl = fromStack.baseUrl ?? env.GUARDRAILS_BASE_URL;
  const missing: string[] = [];
  if (!apiKey) missing.push("the API key: `pulumi config set --secret guardrails:apiKey <key>` or the env var GUARDRAILS_API_KEY");
  if (!baseUrl) missing.push("the service URL: `pulumi config set guardrails:baseUrl <url>` or the env var GUARDRAILS_BASE_URL");
  if (missing.length > 0) throw new Error(`pulumi-guardrails is not configured; set ${missing.join(", and ")}`);
  const envNum = (v: string | undefined) => (v ? Number(v) : undefined);
  const maxAttempts = fromStack.maxAttempts ?? envNum(env.GUARDRAILS_MAX_ATTEMPTS);
  const timeoutMs = fromStack.timeoutMs ?? envNum(env.GUARDRAILS_TIMEOUT_MS);
  const maxBulk = fromStack.maxBulk ?? envNum(env.GUARDRAILS_MAX_BULK);
  for (const [name, value] of [["maxAttempts", maxAttempts], ["timeoutMs", timeoutMs], ["maxBulk", maxBulk]] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) throw new Error(`guardrails:${name} must be a positive integer (got ${value})`);
  }
  return { apiKey: apiKey!, baseUrl: baseUrl!, maxAttempts, timeoutMs, maxBulk };
}

/** One client per provider process (and per settings), sharing one keep-alive pool. */
export function getClient(): GuardrailsClient {
  const s = resolveSettings();
  const key = JSON.stringify([s.baseUrl, s.apiKey, s.maxAttempts, s.timeoutMs]);
  if (cached?.key !== key) {
    const retry: Partial<RetryOptions> = s.maxAttempts ? { maxAttempts: s.maxAttempts } : {};
    cached = { key, client: new GuardrailsClient({ baseUrl: s.baseUrl, apiKey: s.apiKey, retry, retryHooks: { onRetry: reportRetry }, ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}) }) };
  }
  return cached.client;
}
