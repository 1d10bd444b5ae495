/**
 * The key and URL are proved once a provider is configured, with one cheap authenticated read
 * (`GET /guardrails?limit=1`) before the first call that passed its own validation, so a CI
 * preview with a wrong key or an unreachable URL fails before any write even when nothing in it
 * needs reading (issue 38, class 7), as the large cloud providers check their credentials, and a
 * bad value is still reported before any call. One read per provider process and settings, shared
 * by every resource. Only a refused key (401, 403) or a URL that takes no connection fails it;
 * any other answer is left to the calls that follow, which say what they found.
 * `guardrails:skipCredentialsCheck` (GUARDRAILS_SKIP_CREDENTIALS_CHECK) skips it for an
 * offline preview.
 */
import { AuthenticationError, ConnectionError, PermissionError } from "../client/errors";
import { UserError } from "../user-error";
import { getClient, resolveSettings } from "./config";
import { explainAuthError, explainUrlError } from "./key-source";
import { firstTime } from "./said-once";

/** The check failed: the key was refused or the URL took no connection. Its `cause` is the API error. */
export class CredentialsCheckError extends UserError {}

const SKIP_HINT =
  "For a preview without the service, set guardrails:skipCredentialsCheck to true (or GUARDRAILS_SKIP_CREDENTIALS_CHECK=true)";

let armed = false;
/** The one read per settings: what it found (a failure to say, or nothing), never a rejection. */
let checked: { key: string; result: Promise<unknown> } | undefined;

/** Whether a failure says the key or the URL cannot work (anything else is the next call's to say). */
function isCredentialFailure(err: unknown): boolean {
  return (
    err instanceof AuthenticationError ||
    err instanceof PermissionError ||
    (err instanceof ConnectionError && !err.requestSent)
  );
}

/** The failure in full, naming the setting and where it came from; never the key. */
function explained(err: unknown, apiKeySource: string): string {
  if (err instanceof PermissionError)
    return `${err.message}. The service refused the API key from ${apiKeySource}: management calls need a management key`;
  return (explainUrlError(explainAuthError(err)) as Error).message;
}

/** The provider was configured: the next call of a resource or data source checks the key and URL first. */
export function armCredentialsCheck(): void {
  armed = true;
}

/** For tests: no check armed, none remembered. */
export function forgetCredentialsCheck(): void {
  armed = false;
  checked = undefined;
}

/**
 * Resolves when the key and URL work, the check is skipped, or the provider was not configured
 * through a face (`armCredentialsCheck`); else throws a `CredentialsCheckError`, in full the
 * first time in this process and pointing back to it after. Settings that cannot be resolved
 * are left to the call that follows, which names them.
 */
export async function credentialsChecked(): Promise<void> {
  if (!armed) return;
  let s: ReturnType<typeof resolveSettings>;
  try {
    s = resolveSettings();
  } catch {
    return;
  }
  if (s.skipCredentialsCheck) return;
  const key = JSON.stringify([s.baseUrl, s.apiKey]);
  if (checked?.key !== key) {
    checked = {
      key,
      result: getClient()
        .probe()
        .then(
          () => undefined,
          (err: unknown) => (isCredentialFailure(err) ? err : undefined),
        ),
    };
  }
  const failure = await checked.result;
  if (failure === undefined) return;
  if (!firstTime("credentials check"))
    throw new CredentialsCheckError(
      "pulumi-guardrails: the key or URL check failed (the first error of this run says why)",
      { cause: failure },
    );
  throw new CredentialsCheckError(
    `pulumi-guardrails checked the key and URL before any change, and it failed: ${explained(failure, s.apiKeySource)}. ${SKIP_HINT}`,
    { cause: failure },
  );
}

/**
 * Wraps each provider method so it runs only after the key and URL were checked
 * (`credentialsChecked`). `check` validates first and checks only args that passed, so a bad
 * value is reported before any call (README: "a bad value is caught before any call").
 */
export function afterCredentialsCheck<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    wrapped[name] =
      name === "check"
        ? async (...args: never[]) => {
            const answer = (await fn(...args)) as { failures?: unknown[] } | undefined;
            if ((answer?.failures?.length ?? 0) === 0) await credentialsChecked();
            return answer;
          }
        : async (...args: never[]) => {
            await credentialsChecked();
            return fn(...args);
          };
  }
  return wrapped as T;
}
