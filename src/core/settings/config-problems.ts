/**
 * The problems of a stack config and environment, face-neutral: both faces check the same
 * rules at preview (the dynamic face in the program, config-warnings.ts; the native face in
 * `CheckConfig`, src/native/config.ts). No message quotes the key, not even one pasted into
 * the wrong setting (`shownSetting`, `checkBaseUrl`).
 */
import { checkBaseUrl } from "../client/base-url";
import { holdsKey } from "../client/redaction";
import { closest } from "../args/messages";
import { hasControl } from "../text/controls";
import { resolveMovesLookup } from "./moves-lookup";
import { BOOLEAN_SETTINGS, KNOWN_KEYS, NUMERIC_MAX, NUMERIC_SETTINGS, parseBoolean, parsePositiveInt } from "./config";

/** Why `pulumi refresh` and `pulumi destroy` can use a setting the stack no longer has. */
export const RECORDED_CONFIG = "`pulumi refresh` and `pulumi destroy` use the config recorded at the last `pulumi up`";

/** A setting whose value cannot work: which one (its short name), and why, naming where it came from. */
export interface SettingProblem {
  setting: (typeof KNOWN_KEYS)[number];
  message: string;
}

/** Warnings for `guardrails:*` config keys this package does not read (short names given), with a did-you-mean. */
export function unknownKeyWarnings(names: readonly string[]): string[] {
  return [...names]
    .sort()
    .filter((name) => !(KNOWN_KEYS as readonly string[]).includes(name))
    .map((name) => {
      const guess = closest(name, KNOWN_KEYS);
      const hidden = hiddenName(name);
      const what = hidden
        ? `an unknown guardrails:* config key (not shown: ${hidden})`
        : `unknown config key guardrails:${name}`;
      return `${what} is ignored; ${guess ? `did you mean guardrails:${guess}?` : `pulumi-guardrails reads ${KNOWN_KEYS.map((k) => `guardrails:${k}`).join(", ")}`}`;
    });
}

/** Longest unknown config key name a warning quotes: the known ones are at most 14 characters. */
const MAX_SHOWN_NAME = 32;

/**
 * The shape of a setting's name, as a person types one: letters in words, camelCase
 * (`maxAttempts`, `baseURL`), snake or kebab case (`base_url`, `api-key`, `BASE_URL`), with at
 * most two digits at the end, and at most two short humps (`Ms`, `Key`): a key has digits
 * mixed with letters, or letters in random case (`ZxkPqRm…`, a hump every two letters).
 */
const NAME_SHAPED = /^(?:[A-Za-z][a-z]*(?:(?:[A-Z]|[-_.][A-Za-z])[a-z]+)*(?:[A-Z]{2,})?|[A-Z]+(?:_[A-Z]+)*)[0-9]{0,2}$/;

/**
 * Why an unknown config key's name is not quoted, or undefined when it may be (issue 38): a
 * key pasted as the name is shaped like one, and a name too long, with characters a name
 * never has or not shaped like a setting's name may be a key of another shape (a short one
 * of another service, `re_8Hq2…`), or escape sequences.
 */
function hiddenName(name: string): string | undefined {
  if (holdsKey(name)) return "shaped like an API key; the key belongs in guardrails:apiKey or GUARDRAILS_API_KEY";
  if (name.length > MAX_SHOWN_NAME) return `${name.length} characters, longer than any setting's name`;
  if (hasControl(name) || !/^[A-Za-z0-9_.-]+$/.test(name)) return "it holds characters no setting's name has";
  if (!NAME_SHAPED.test(name) || (name.match(/[A-Z][a-z]{1,2}(?![a-z])/g) ?? []).length > 2)
    return `${name.length} characters, not shaped like a setting's name: letters in words, with no digits mixed in and no run of short humps`;
  return undefined;
}

/** The warning for a key set without `--secret`; `places` says where the face keeps it unencrypted. */
export function plainKeyWarning(places: string): string {
  return (
    `guardrails:apiKey is plain text: it is stored unencrypted in ${places}. ` +
    "Make it a secret with `pulumi config set --secret guardrails:apiKey <key>`, " +
    "or better, `pulumi config rm guardrails:apiKey` and set GUARDRAILS_API_KEY in the environment"
  );
}

/**
 * Why a key cannot be sent, or undefined. Never quotes it: a key with a blank or a line break
 * (pasted with its quotes or a trailing newline) or a URL pasted into the key's setting.
 */
export function apiKeyProblem(key: string): string | undefined {
  if (/\s/.test(key) || hasControl(key))
    return "holds a blank, a line break or a control character (the key is not shown); set the key alone, with no quotes or spaces";
  if (/[^\u0021-\u007e]/.test(key))
    return "holds characters other than visible ASCII (the key is not shown); an API key is letters, digits and punctuation";
  if (/^https?:\/\//i.test(key))
    return "is a URL, not a key; the service URL belongs in guardrails:baseUrl or GUARDRAILS_BASE_URL";
  return undefined;
}

/**
 * Settings that are set but cannot work, in a fixed order (numbers, flags, the URL, the key), each
 * message naming where the value came from: stack config (`config`, by short name) wins over
 * the environment, as the core's settings read them (config.ts).
 */
export function malformedSettings(
  config: Readonly<Record<string, string | undefined>>,
  env: NodeJS.ProcessEnv,
): SettingProblem[] {
  const problems: SettingProblem[] = [];
  const keys = [config.apiKey, env.GUARDRAILS_API_KEY];
  for (const [name, envVar] of Object.entries(NUMERIC_SETTINGS) as [keyof typeof NUMERIC_SETTINGS, string][]) {
    const max = NUMERIC_MAX[name];
    try {
      if (config[name] !== undefined) parsePositiveInt(config[name], `guardrails:${name}`, keys, max);
      else parsePositiveInt(env[envVar], `the env var ${envVar}`, keys, max);
    } catch (err) {
      problems.push({ setting: name, message: (err as Error).message });
    }
  }
  for (const [name, envVar] of Object.entries(BOOLEAN_SETTINGS) as [keyof typeof BOOLEAN_SETTINGS, string][]) {
    try {
      if (config[name] !== undefined) parseBoolean(config[name], `guardrails:${name}`, keys);
      else parseBoolean(env[envVar], `the env var ${envVar}`, keys);
    } catch (err) {
      problems.push({ setting: name, message: (err as Error).message });
    }
  }
  try {
    resolveMovesLookup(config.movesLookup, env, keys);
  } catch (err) {
    problems.push({ setting: "movesLookup", message: (err as Error).message });
  }
  const baseUrl = config.baseUrl || env.GUARDRAILS_BASE_URL;
  if (baseUrl) {
    try {
      checkBaseUrl(baseUrl, keys);
    } catch (err) {
      const source = config.baseUrl ? "guardrails:baseUrl" : "the env var GUARDRAILS_BASE_URL";
      problems.push({ setting: "baseUrl", message: `${source}: ${(err as Error).message}` });
    }
  }
  const apiKey = config.apiKey || env.GUARDRAILS_API_KEY;
  const keyProblem = apiKey ? apiKeyProblem(apiKey) : undefined;
  if (keyProblem) {
    const source = config.apiKey ? "guardrails:apiKey" : "the env var GUARDRAILS_API_KEY";
    problems.push({ setting: "apiKey", message: `${source} ${keyProblem}` });
  }
  return problems;
}
