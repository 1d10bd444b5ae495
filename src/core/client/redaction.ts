/**
 * Redaction, in one place: the key removed from a text (`redact`) and a URL (`redactUrl`);
 * everything a server or a socket error hands to an error object (the server's message, its
 * `metadata`, and the `cause` chain), each copied with the key removed and only then bounded,
 * so a key never straddles a cut (wrap, never edit: the originals are left alone and dropped);
 * and whether a text holds a key at all, so a message never quotes one (`holdsKey`,
 * `shownSetting`).
 */
import { blankControls } from "../text/controls";
import { exactForms, hidesKey, keyRuns } from "./key-forms";

const SECRET_PARAMS = /^(key|api[-_]?key|token|access[-_]?token|secret|password|auth|authorization|signature|sig)$/i;

/** Drops userinfo and masks query values whose names look secret. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "[unparseable URL]";
  }
  url.username = "";
  url.password = "";
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAMS.test(name)) url.searchParams.set(name, "REDACTED");
  return url.toString();
}

/** What stands for a text that hid the key in a form no replacement can cut out. */
export const WITHHELD = "[REDACTED: the text held the API key in an encoded form, so none of it is shown]";

/**
 * Replaces every occurrence of `secret` in `text`, as sent and in every form a server may
 * echo it in (key-forms.ts: URL- and JSON-escaped, percent-encoded, base64 of any text
 * holding it, any case), and every run of it long enough to be it (a key cut short); a text
 * that still hides it (HTML entities, escapes, invisible characters between its characters,
 * hex or base64 of base64) is withheld whole. The last line of defence for messages.
 */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) return text;
  let out = text;
  for (const form of exactForms(secret)) out = out.split(form).join("[REDACTED]");
  out = out.replace(new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"), "[REDACTED]");
  for (const [start, end] of keyRuns(out, secret).reverse()) out = `${out.slice(0, start)}[REDACTED]${out.slice(end)}`;
  return hidesKey(out, secret) ? WITHHELD : out;
}

/** Longest server message kept on an error, in characters. */
export const SERVER_MESSAGE_MAX = 500;
const MAX_DEPTH = 6;
const MAX_ITEMS = 50;

/**
 * A server-supplied text as an error may repeat it: key removed first, then controls, then cut.
 * Only a head of the text is read (`max` and room for the longest encoded form of the key past
 * it, so a key straddling the cut is still seen whole): what lies beyond is never shown, and
 * reading megabytes of it for encoded keys would take seconds.
 */
export function serverText(text: string, secret: string, max = SERVER_MESSAGE_MAX): string {
  const head = max + 16 * secret.length + 64;
  const dropped = Math.max(0, text.length - head);
  // Control characters (ANSI escapes, newlines, NUL) are never echoed into a terminal or a log line.
  const clean = blankControls(redact(dropped > 0 ? text.slice(0, head) : text, secret)).trim();
  if (clean === WITHHELD) return clean;
  const shown = clean.slice(0, max);
  const more = clean.length - shown.length + dropped;
  return more > 0 ? `${shown}… (${more} more characters)` : shown;
}

/** A deep copy of a JSON-like value with the key removed from every string, keys included, and its size bounded. */
export function redactValue(value: unknown, secret: string, depth = 0): unknown {
  if (typeof value === "string") return serverText(value, secret, 1000);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map((v) => redactValue(v, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS))
    out[serverText(k, secret, 200)] = redactValue(v, secret, depth + 1);
  return out;
}

/**
 * A copy of an error chain safe to keep as `cause`: name, code and message (key removed) of
 * each link, nothing else. Socket and parser errors can quote what they read (Node's
 * `JSON.parse` quotes the text it failed on), so the originals never reach the error object.
 */
export function redactCause(cause: unknown, secret: string, depth = 0): Error | undefined {
  if (cause === undefined || cause === null || depth >= MAX_DEPTH) return undefined;
  const source = cause as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const message = typeof source.message === "string" ? source.message : String(cause);
  const inner = redactCause(source.cause, secret, depth + 1);
  const copy = new Error(serverText(message, secret, 1000), inner ? { cause: inner } : undefined);
  copy.name = typeof source.name === "string" ? serverText(source.name, secret, 100) : "Error";
  if (typeof source.code === "string") (copy as Error & { code?: string }).code = serverText(source.code, secret, 100);
  // The copy's stack is this function's, not the original's (whose first line quotes the message).
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

/** A token shaped like an API key: `sk-…`, or a long run of letters and digits with no dot or slash. */
const KEY_SHAPED = /sk-[A-Za-z0-9_-]{8,}|[A-Za-z0-9_-]{32,}/g;

/** A token shaped like a key of the service itself (`sk-or-v1-…`): never part of a service URL. */
const SERVICE_KEY = /sk-[A-Za-z0-9_-]{16,}/;

/**
 * Whether `text` holds one of `keys` (as given or encoded; `redact` skips a missing or too short
 * one), or a token shaped like the service's keys.
 */
export function holdsConfiguredKey(text: string, keys: readonly (string | undefined)[]): boolean {
  return keys.some((k) => redact(text, k) !== text) || SERVICE_KEY.test(text);
}

/** Whether `text` holds one of `keys`, or any token shaped like an API key (too many rather than too few). */
export function holdsKey(text: string, keys: readonly (string | undefined)[] = []): boolean {
  if (holdsConfiguredKey(text, keys)) return true;
  return [...text.matchAll(KEY_SHAPED)].some(([t]) => t.startsWith("sk-") || (/[0-9]/.test(t) && /[A-Za-z]/.test(t)));
}

/**
 * A config value as a message may quote it: JSON-quoted and cut, or, when it holds the
 * configured key or anything shaped like a key (a key pasted into the wrong setting), a
 * description that quotes nothing (issue 24). Every message that quotes a setting uses this.
 */
export function shownSetting(text: string, keys: readonly (string | undefined)[], max = 100): string {
  if (holdsKey(text, keys))
    return "a value shaped like an API key, not shown; the key belongs in guardrails:apiKey or GUARDRAILS_API_KEY";
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}
