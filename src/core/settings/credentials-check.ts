/**
 * The key and URL are proved once a provider is configured, with one cheap authenticated read
 * (`GET /guardrails?limit=1`) before the first call that passed its own validation, so a CI
 * preview with a wrong key or an unreachable URL fails before any write even when nothing in it
 * needs reading (issue 38, class 7), as the large cloud providers check their credentials, and a
 * bad value is still reported before any call. One read per provider instance (the engine runs
 * one per process) and settings, shared by every resource. Only a refused key (401, 403) or a URL that takes no connection fails it;
 * any other answer is left to the calls that follow, which say what they found.
 * `guardrails:skipCredentialsCheck` (GUARDRAILS_SKIP_CREDENTIALS_CHECK) skips it for an
 * offline preview.
 */
import { AuthenticationError, ConnectionError, PermissionError } from "../client/errors";
import { UserError } from "../user-error";
import type { Connection } from "../connection";
import { processConfig, type ResolvedSettings } from "./config";
import { explainAuthError, explainUrlError } from "./key-source";
import { firstTime } from "./said-once";

/** The check failed: the key was refused or the URL took no connection. Its `cause` is the API error. */
export class CredentialsCheckError extends UserError {}

const SKIP_HINT =
  "For a preview without the service, set guardrails:skipCredentialsCheck to true (or GUARDRAILS_SKIP_CREDENTIALS_CHECK=true)";

/** Whether a failure says the key or the URL cannot work (anything else is the next call's to say). */
function isCredentialFailure(err: unknown): boolean {
  return (
    err instanceof AuthenticationError ||
    err instanceof PermissionError ||
    (err instanceof ConnectionError && !err.requestSent)
  );
}

/** The failure in full, naming the setting and where it came from; never the key. */
function explained(err: unknown, apiKeySource: string, conn: Connection): string {
  if (err instanceof PermissionError)
    return `${err.message}. The service refused the API key from ${apiKeySource}: management calls need a management key`;
  return (explainUrlError(explainAuthError(err, conn), conn) as Error).message;
}

/**
 * One provider instance's check of its key and URL, over its `conn`: armed when the provider is
 * configured, run at most once per settings, by the first call that needs it.
 */
export class CredentialsCheck {
  private armed = false;
  /** The one read per settings: what it found (a failure to say, or nothing), never a rejection. */
  private checked: { key: string; result: Promise<unknown> } | undefined;

  constructor(private readonly conn: Connection) {}

  /** The provider was configured: the next call of a resource or data source checks the key and URL first. */
  arm(): void {
    this.armed = true;
  }

  /** For tests: no check armed, none remembered. */
  forget(): void {
    this.armed = false;
    this.checked = undefined;
  }

  /**
   * Resolves when the key and URL work, the check is skipped, or the provider was not configured
   * through a face (`arm`); else throws a `CredentialsCheckError`, in full the first time in
   * this process and pointing back to it after. Settings that cannot be resolved are left to
   * the call that follows, which names them.
   */
  async passed(): Promise<void> {
    if (!this.armed) return;
    let s: ResolvedSettings;
    try {
      s = this.conn.settings();
    } catch {
      return;
    }
    if (s.skipCredentialsCheck) return;
    const key = JSON.stringify([s.baseUrl, s.apiKey]);
    if (this.checked?.key !== key) {
      this.checked = {
        key,
        result: this.conn
          .client()
          .probe()
          .then(
            () => undefined,
            (err: unknown) => (isCredentialFailure(err) ? err : undefined),
          ),
      };
    }
    const failure = await this.checked.result;
    if (failure === undefined) return;
    if (!firstTime("credentials check"))
      throw new CredentialsCheckError(
        "pulumi-guardrails: the key or URL check failed (the first error of this run says why)",
        { cause: failure },
      );
    throw new CredentialsCheckError(
      `pulumi-guardrails checked the key and URL before any change, and it failed: ${explained(failure, s.apiKeySource, this.conn)}. ${SKIP_HINT}`,
      { cause: failure },
    );
  }
}

/** The dynamic face's check: one provider per process, over the process config. */
const processCheck = new CredentialsCheck(processConfig);

/** The dynamic provider was configured: its next call checks the key and URL first. */
export function armCredentialsCheck(): void {
  processCheck.arm();
}

/** For tests: the dynamic face's check neither armed nor remembered. */
export function forgetCredentialsCheck(): void {
  processCheck.forget();
}

/** The dynamic face's check (`CredentialsCheck.passed`). */
export function credentialsChecked(): Promise<void> {
  return processCheck.passed();
}

/**
 * Wraps each provider method so it runs only after the key and URL were checked
 * (`CredentialsCheck.passed`). `check` validates first and checks only args that passed, so a bad
 * value is reported before any call (README: "a bad value is caught before any call").
 */
export function afterCredentialsCheck<T extends Record<string, (...args: never[]) => Promise<unknown>>>(
  methods: T,
  check: CredentialsCheck = processCheck,
): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    wrapped[name] =
      name === "check"
        ? async (...args: never[]) => {
            const answer = (await fn(...args)) as { failures?: unknown[] } | undefined;
            if ((answer?.failures?.length ?? 0) === 0) await check.passed();
            return answer;
          }
        : async (...args: never[]) => {
            await check.passed();
            return fn(...args);
          };
  }
  return wrapped as T;
}
