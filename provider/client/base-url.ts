/**
 * Base URL rules: https, unless the host is loopback (the emulator). The key must never
 * travel in clear text to another machine.
 */

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/** Normalises a base URL (no trailing slash) or throws a message saying what is expected. */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`baseUrl must be an absolute URL such as https://api.example.com (got "${raw.slice(0, 200)}")`);
  }
  if (url.username || url.password) throw new Error("baseUrl must not carry credentials; set the API key with guardrails:apiKey");
  if (url.protocol === "https:") return stripSlash(url);
  if (url.protocol === "http:" && LOOPBACK.test(url.hostname)) return stripSlash(url);
  if (url.protocol === "http:") {
    throw new Error(`baseUrl must use https unless the host is loopback (got http://${url.host}); plain http would send the API key in clear text`);
  }
  throw new Error(`baseUrl must be an https URL (got protocol "${url.protocol}")`);
}

function stripSlash(url: URL): string {
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}
