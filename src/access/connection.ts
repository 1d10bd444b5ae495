/**
 * The command's connection: the provider's env vars (GUARDRAILS_API_KEY, GUARDRAILS_BASE_URL,
 * and the retry, timeout and concurrency settings), read as `guardrails-export` reads them, at
 * the first call; a missing one is named, the key never shown.
 */
import type { GuardrailsClient } from "../core/client/client";
import type { Connection } from "../core/connection";
import { resolveSettings } from "../core/settings/config";
import { clientFromEnv } from "../export/export";

/** A connection made from `env` at its first use. */
export function connectionFromEnv(env: NodeJS.ProcessEnv = process.env): Connection {
  let client: GuardrailsClient | undefined;
  return {
    client: () => (client ??= clientFromEnv(env)),
    settings: () => resolveSettings(env),
  };
}
