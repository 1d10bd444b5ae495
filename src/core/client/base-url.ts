/**
 * Base URL rules: https, unless the host is loopback (the emulator). The key must never
 * travel in clear text to another machine. The client adds `/api/v1` itself, so a pasted
 * `/api/v1` suffix (the emulator's banner prints the API address) is stripped rather than
 * doubled into `/api/v1/api/v1/...`, where every call would answer 404.
 */
import { UserError } from "../user-error";
import { holdsConfiguredKey, holdsKey, shownSetting } from "./redaction";

// URL lowercases a host and keeps an IPv6 one in brackets, so `[::1]` is the only form of ::1.
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;
const API_SUFFIX = /\/api\/v1\/*$/i;

/**
 * Normalises a base URL (no trailing slash, no `/api/v1` suffix) or throws a message saying what
 * is expected. `keys` are the configured API keys: a URL holding one, or anything shaped like a
 * key, is refused, and no message quotes it (a key pasted into the wrong setting).
 */
export function checkBaseUrl(raw: string, keys: readonly (string | undefined)[] = []): string {
  const fail = (message: string) => new UserError(`baseUrl ${message}`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw fail(
      `must be an absolute URL such as https://api.example.com (got ${holdsKey(raw, keys) ? shownSetting(raw, keys) : notAUrl(raw)})`,
    );
  }
  if (holdsConfiguredKey(raw, keys)) {
    throw fail(
      "must not carry an API key (it holds one, not shown); set the key with guardrails:apiKey or GUARDRAILS_API_KEY",
    );
  }
  if (url.username || url.password) throw fail("must not carry credentials; set the API key with guardrails:apiKey");
  if (url.search || url.hash)
    throw fail(
      `must not carry a query or fragment (got ${shownSetting(`${url.origin}${url.pathname}${url.search ? "?…" : ""}${url.hash ? "#…" : ""}`, keys, 200)})`,
    );
  if (url.protocol === "https:") return normalisePath(url);
  if (url.protocol === "http:" && LOOPBACK.test(url.hostname)) return normalisePath(url);
  if (url.protocol === "http:") {
    throw fail(
      `must use https unless the host is loopback (got ${holdsKey(url.host, keys) ? shownSetting(url.host, keys) : `http://${url.host}`}); plain http would send the API key in clear text`,
    );
  }
  throw fail(`must be an https URL (got protocol ${shownSetting(url.protocol, keys)})`);
}

/**
 * What a text that is not a URL is, never the text (issue 38): a key of another service
 * pasted alone into the setting has no shape a key test can know, so none of it is quoted.
 */
function notAUrl(raw: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.test(raw) ? "a scheme but no valid address after it" : "no scheme";
  return `a value that is not a URL: ${[...raw].length} characters, ${scheme}${/\s/.test(raw) ? ", with spaces" : ""}`;
}

function normalisePath(url: URL): string {
  return `${url.origin}${url.pathname.replace(API_SUFFIX, "").replace(/\/+$/, "")}`;
}
