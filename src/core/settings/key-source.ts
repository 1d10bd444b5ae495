/**
 * A failure caused by the key or the URL says where that setting came from, and says it once.
 * `pulumi refresh` (without `--run-program`) and `pulumi destroy` configure the provider with
 * the config recorded in the state at the last update, so a key or URL corrected since then
 * is not the one that failed; the message says how to make the run use the current config.
 * One provider process serves every resource of a run: the first such failure explains, the
 * others name their resource and point back to it (issue 24: not 20 identical long errors).
 */
import { AuthenticationError, ConnectionError, UntrustedNotFoundError, type GuardrailsError } from "../client/errors";
import { shownSetting } from "../client/redaction";
import type { Connection, ResolvedSettings } from "../connection";
import { processConfig } from "./config";
import { RECORDED_CONFIG } from "./config-problems";
import { firstTime } from "./said-once";

/** The provider whose settings a message names: the dynamic face's process config unless given. */
type Source = Pick<Connection, "settings">;

/** Where a setting came from, or undefined when the provider is not configured. */
function settings(conn: Source): ResolvedSettings | undefined {
  try {
    return conn.settings();
  } catch {
    return undefined;
  }
}

/** The `guardrail "x": GET <url>: ` an API error's message starts with, resource prefix included. */
function lead(err: GuardrailsError): string {
  const head = `${err.method} ${err.url}: `;
  const at = err.message.indexOf(head);
  return at < 0 ? "" : err.message.slice(0, at + head.length);
}

/** A new AuthenticationError naming the key's source (in `conn`'s settings), wrapping `err`; other errors pass through. */
export function explainAuthError(err: unknown, conn: Source = processConfig): unknown {
  if (!(err instanceof AuthenticationError)) return err;
  const s = settings(conn);
  if (!s) return err;
  if (!firstTime("401"))
    return err.wrap(
      `${lead(err)}401 Unauthorized: the API key was refused (the first error of this run says which key and what to do)`,
    );
  const hint = s.apiKeySource.startsWith("stack config")
    ? `${RECORDED_CONFIG}; after correcting the key, run \`pulumi refresh --run-program\` or \`pulumi up\``
    : "check the key in that variable (stack config guardrails:apiKey would win over it)";
  return err.wrap(`${err.message}. The service refused the API key from ${s.apiKeySource}; ${hint}`);
}

/**
 * A failure that points at the service URL (a 404 the service would not confirm, a connection
 * refused or a host unknown), said in full once per run with the URL's source.
 */
export function explainUrlError(err: unknown, conn: Source = processConfig): unknown {
  if (err instanceof UntrustedNotFoundError) {
    if (firstTime("url")) return err;
    return new UntrustedNotFoundError(
      `${err.what}: not reported as deleted, for the reason the first error of this run gives (check the service URL)`,
      err.what,
      { cause: err },
    );
  }
  if (!(err instanceof ConnectionError) || err.requestSent) return err;
  const s = settings(conn);
  if (!s) return err;
  if (!firstTime("url"))
    return err.wrap(`${lead(err)}no connection (the first error of this run says which URL and what to do)`);
  const hint = s.baseUrlSource.startsWith("stack config")
    ? `${RECORDED_CONFIG}; after correcting guardrails:baseUrl, run \`pulumi refresh --run-program\` or \`pulumi up\``
    : "check that variable (stack config guardrails:baseUrl would win over it)";
  return err.wrap(
    `${err.message}. The service URL ${shownSetting(s.baseUrl, [s.apiKey])} comes from ${s.baseUrlSource}; ${hint}`,
  );
}

/** Wraps each provider method so a failure of the key or the URL names its source, once. */
export function withKeySource<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw explainUrlError(explainAuthError(err));
      }
    };
  }
  return wrapped as T;
}
