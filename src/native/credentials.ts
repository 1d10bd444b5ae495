/**
 * `Configure` proves the key and URL with one read before it answers (issue 38, class 7), so a
 * preview with a wrong key or an unreachable URL fails before any resource or data source is
 * served, whether or not anything needs reading. Once per provider process and settings; the
 * check itself is the core's (src/core/settings/credentials-check.ts), skipped with
 * `guardrails:skipCredentialsCheck`.
 */
import { armCredentialsCheck, credentialsChecked } from "../core/settings/credentials-check";

/** A `Configure` handler that, once the settings are taken, checks them before it answers. */
export function checkingCredentials<Req, Resp>(configure: (req: Req) => Resp): (req: Req) => Promise<Resp> {
  return async (req) => {
    const resp = configure(req);
    armCredentialsCheck();
    await credentialsChecked();
    return resp;
  };
}
