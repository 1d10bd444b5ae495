/**
 * The native face's credentials check (issue 38, class 7): `Configure` arms it, and the first
 * resource method or data source that gets past its own validation proves the key and URL with
 * one read before it goes on, so a preview with a wrong key or an unreachable URL fails before
 * any write whether or not anything needs reading, and a bad value is still reported before any
 * call. Once per provider instance (one per plugin process) and settings; the check itself is the core's
 * (src/core/settings/credentials-check.ts), skipped with `guardrails:skipCredentialsCheck`.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { CredentialsCheck } from "../core/settings/credentials-check";
import { LOAD_GUARDRAIL_FILES } from "./load-files";

/** A `Configure` handler that arms the check once the settings are taken. */
export function armingCredentials<Req, Resp>(
  check: CredentialsCheck,
  configure: (req: Req) => Resp,
): (req: Req) => Resp {
  return (req) => {
    const resp = configure(req);
    check.arm();
    return resp;
  };
}

/** A resource method that runs only once the key and URL were checked. */
export function afterCheck<Req, Resp>(
  check: CredentialsCheck,
  fn: (req: Req) => Promise<Resp>,
): (req: Req) => Promise<Resp> {
  return async (req) => {
    await check.passed();
    return fn(req);
  };
}

/** `Check`: the args validated first; only args that passed wait for the key and URL check. */
export function checkThenCredentials(
  credentials: CredentialsCheck,
  check: (req: provproto.CheckRequest) => Promise<provproto.CheckResponse>,
): (req: provproto.CheckRequest) => Promise<provproto.CheckResponse> {
  return async (req) => {
    const resp = await check(req);
    if (resp.getFailuresList().length === 0) await credentials.passed();
    return resp;
  };
}

/** An invoke: a data source waits for the check; reading local guardrail files needs no service. */
export function invokeAfterCheck(
  check: CredentialsCheck,
  invoke: (req: provproto.InvokeRequest) => Promise<provproto.InvokeResponse>,
): (req: provproto.InvokeRequest) => Promise<provproto.InvokeResponse> {
  return async (req) => {
    if (req.getTok() !== LOAD_GUARDRAIL_FILES) await check.passed();
    return invoke(req);
  };
}
