/**
 * Provider config for the native face. `CheckConfig` fails the preview when the key or the URL
 * is missing or cannot work, by the rules the dynamic face checks in the program
 * (src/core/settings/config-problems.ts), naming both ways to set each and never quoting the
 * key, and warns on unknown keys. `DiffConfig` updates in place. `Configure` warns once on a
 * key set without `--secret` and hands the values to the provider instance's config
 * (src/core/settings/config.ts, its one client), once: a second `Configure` that changes them is refused.
 */
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import type { PropertyFailure } from "../core/args/messages";
import { notConfigured, type ProviderConfig } from "../core/settings/config";
import { malformedSettings, plainKeyWarning, unknownKeyWarnings } from "../core/settings/config-problems";
import { firstTime } from "../core/settings/said-once";
import { UserError } from "../core/user-error";
import { fromStruct, toStruct } from "./wire";

const PREFIX = "guardrails:";
/** Inputs the engine adds to every provider's config; not settings of ours. */
const ENGINE_KEYS = new Set(["version", "pluginDownloadURL"]);

/** Config values by short name (`apiKey`), as text, from a config Struct; the engine's own keys left out. */
function settingsOf(props: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(props)) {
    if (ENGINE_KEYS.has(k) || v === undefined || v === null) continue;
    out[k] = typeof v === "string" ? v : JSON.stringify(v);
  }
  return out;
}

/** Config values by short name, from the args Struct, else the legacy variables map. */
function configValues(req: provproto.ConfigureRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of req.getVariablesMap().entries()) out.set(String(k).replace(/^guardrails:(config:)?/, ""), v);
  for (const [k, v] of Object.entries(settingsOf(fromStruct(req.getArgs()).props))) out.set(k, v);
  return out;
}

/*
 * A provider instance keeps the settings of its first `Configure`, each as a digest (no second copy of the key). The
 * engine configures a provider process once, whether it serves the default provider or an
 * explicit one ("Providers may expect a *single* call to `Configure`", pulumi's
 * provider.proto), but the plugin listens on loopback without authentication: a second
 * `Configure` from another local process could point the next call, the user's key in its
 * header, at its own listener (issue 38, class 5). One that changes a setting is refused.
 */

const digests = (values: Map<string, string>) =>
  new Map([...values].map(([k, v]) => [k, createHash("sha256").update(v).digest("hex")]));

/** The settings a later `Configure` would change, by name; none when it repeats the first. */
function changedSettings(now: Map<string, string>, first: Map<string, string>): string[] {
  return [...new Set([...first.keys(), ...now.keys()])].filter((k) => first.get(k) !== now.get(k)).sort();
}

/**
 * `Configure` of one provider instance: the stack config to its `config` (the env vars stay the
 * fallback), the first time; a later one that changes a setting is refused.
 */
export function configureOnce(
  config: ProviderConfig,
): (req: provproto.ConfigureRequest) => provproto.ConfigureResponse {
  let configuredWith: Map<string, string> | undefined;
  return (req) => {
    const values = configValues(req);
    if (configuredWith) {
      const changed = changedSettings(digests(values), configuredWith);
      if (changed.length > 0)
        throw new UserError(
          `pulumi-guardrails: refused a second Configure that changes ${changed.join(", ")}: the engine configures ` +
            "each provider plugin once (every provider runs in a plugin process of its own), so this call came from " +
            "elsewhere; the first settings stay in force",
        );
    }
    if (req.getArgs()) warnPlainKey(fromStruct(req.getArgs()));
    if (process.env.GUARDRAILS_NATIVE_TRACE) {
      // A probe for the demo and the tests: names only, never values.
      const args = fromStruct(req.getArgs());
      appendFileSync(
        process.env.GUARDRAILS_NATIVE_TRACE,
        `native: Configure pid=${process.pid} keys=${[...values.keys()].sort().join(",")} ` +
          `secretArgs=${args.secretRoots.join(",")} variables=${[...req.getVariablesMap().keys()].join(",")}\n`,
      );
    }
    configuredWith ??= digests(values);
    config.configure((key) => (key.startsWith(PREFIX) ? values.get(key.slice(PREFIX.length)) : undefined));
    const resp = new provproto.ConfigureResponse();
    resp.setAcceptsecrets(true);
    resp.setSupportspreview(false);
    resp.setAcceptresources(false);
    resp.setAcceptoutputs(false);
    return resp;
  };
}

/** Every problem of a config (by short name) and environment, each on the setting it is about. */
export function configFailures(config: Record<string, string>, env: NodeJS.ProcessEnv): PropertyFailure[] {
  const failures: PropertyFailure[] = [];
  const missingKey = notConfigured(config.apiKey || env.GUARDRAILS_API_KEY, "set");
  const missingUrl = notConfigured("set", config.baseUrl || env.GUARDRAILS_BASE_URL);
  if (missingKey) failures.push({ property: "apiKey", reason: missingKey });
  if (missingUrl) failures.push({ property: "baseUrl", reason: missingUrl });
  for (const p of malformedSettings(config, env)) failures.push({ property: p.setting, reason: p.message });
  // The engine prints a failure's property with its value from the inputs: a setting that is in
  // the config would show its value, one that is not `value {<nil>}` (issue 38). Every reason
  // names its setting, so every failure goes without a property.
  return failures.map((f) => ({ property: "", reason: f.reason }));
}

/**
 * The plain-text key warning, to the engine (engine-log.ts), once per process. Said from
 * `Configure`: `CheckConfig` gets every value unmarked (the engine strips secrets there and
 * marks them again on what it returns), `Configure` gets the key marked when it is a secret.
 */
function warnPlainKey(args: { props: Record<string, unknown>; secretRoots: string[] }): void {
  if (typeof args.props.apiKey !== "string" || args.props.apiKey === "" || args.secretRoots.includes("apiKey")) return;
  if (!firstTime("plain-text key")) return;
  const places =
    "Pulumi.<stack>.yaml, in the state (as an input of the default guardrails provider), in `pulumi stack export` and in `pulumi preview --json`";
  console.error(`pulumi-guardrails: ${plainKeyWarning(places)}`);
}

/** `CheckConfig`: the preview fails on a missing or malformed key or URL; unknown keys warn. */
export function checkConfigResponse(req: provproto.CheckRequest): provproto.CheckResponse {
  const config = settingsOf(fromStruct(req.getNews()).props);
  for (const w of unknownKeyWarnings(Object.keys(config))) console.error(`pulumi-guardrails: ${w}`);
  const resp = new provproto.CheckResponse();
  resp.setInputs(req.getNews() ?? toStruct({}));
  resp.setFailuresList(
    configFailures(config, process.env).map((f) => {
      const failure = new provproto.CheckFailure();
      failure.setProperty(f.property);
      failure.setReason(f.reason);
      return failure;
    }),
  );
  return resp;
}

/** `DiffConfig`: a change of any setting updates the provider in place; none replaces it. */
export function diffConfigResponse(req: provproto.DiffRequest): provproto.DiffResponse {
  const olds = fromStruct(req.getOldInputs() ?? req.getOlds()).props;
  const news = fromStruct(req.getNews()).props;
  const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
    (k) => !ENGINE_KEYS.has(k) && JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
  );
  const resp = new provproto.DiffResponse();
  resp.setChanges(
    changed.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setDiffsList(changed);
  return resp;
}
