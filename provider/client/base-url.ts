/**
 * Base URL rules: https, unless the host is loopback (the emulator). The key must never
 * travel in clear text to another machine. The client adds `/api/v1` itself, so a pasted
 * `/api/v1` suffix (the emulator's banner prints the API address) is stripped rather than
 * doubled into `/api/v1/api/v1/...`, where every call would answer 404.
 */

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;
const API_SUFFIX = /\/api\/v1\/*$/i;

/** Normalises a base URL (no trailing slash, no `/api/v1` suffix) or throws a message saying what is expected. */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`baseUrl must be an absolute URL such as https://api.example.com (got "${raw.slice(0, 200)}")`);
  }
  if (url.username || url.password) throw new Error("baseUrl must not carry credentials; set the API key with guardrails:apiKey");
  if (url.search || url.hash) throw new Error(`baseUrl must not carry a query or fragment (got "${url.origin}${url.pathname}${url.search ? "?…" : ""}${url.hash ? "#…" : ""}")`);
  if (url.protocol === "https:") return normalisePath(url);
  if (url.protocol === "http:" && LOOPBACK.test(url.hostname)) return normalisePath(url);
  if (url.protocol === "http:") {
    throw new Error(`baseUrl must use https unless the host is loopback (got http://${url.host}); plain http would send the API key in clear text`);
  }
  throw new Error(`baseUrl must be an https URL (got protocol "${url.protocol}")`);
}

/** Whether `raw` ends in the `/api/v1` that `checkBaseUrl` strips (for a notice to the user). */
export function hasApiSuffix(raw: string): boolean {
  try {
    return API_SUFFIX.test(new URL(raw).pathname);
  } catch {
    return false;
  }
}

function normalisePath(url: URL): string {
  return `${url.origin}${url.pathname.replace(API_SUFFIX, "").replace(/\/+$/, "")}`;
}
