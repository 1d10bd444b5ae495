/**
 * Provider config for the native face: `CheckConfig` (fail the preview when no key can be
 * found), `DiffConfig` and `Configure`, which hands the values to the core's settings
 * (src/core/settings/config.ts) under the names the dynamic face uses (`guardrails:apiKey`).
 */
import { appendFileSync } from "node:fs";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { configure } from "../core/settings/config";
import { fromStruct, toStruct } from "./wire";

const PREFIX = "guardrails:";

/** Config values by short name (`apiKey`), from the args Struct, else the legacy variables map. */
function configValues(req: provproto.ConfigureRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of req.getVariablesMap().entries()) out.set(String(k).replace(/^guardrails:(config:)?/, ""), v);
  for (const [k, v] of Object.entries(fromStruct(req.getArgs()).props)) {
    if (v !== undefined && v !== null) out.set(k, typeof v === "string" ? v : JSON.stringify(v));
  }
  return out;
}

export function configureResponse(req: provproto.ConfigureRequest): provproto.ConfigureResponse {
  const values = configValues(req);
  if (process.env.GUARDRAILS_NATIVE_TRACE) {
    // A spike probe: names only, never values.
    const args = fromStruct(req.getArgs());
    appendFileSync(
      process.env.GUARDRAILS_NATIVE_TRACE,
      `native: Configure keys=${[...values.keys()].sort().join(",")} secretArgs=${args.secretRoots.join(",")} ` +
        `variables=${[...req.getVariablesMap().keys()].join(",")}\n`,
    );
  }
  configure((key) => (key.startsWith(PREFIX) ? values.get(key.slice(PREFIX.length)) : undefined));
  const resp = new provproto.ConfigureResponse();
  resp.setAcceptsecrets(true);
  resp.setSupportspreview(false);
  resp.setAcceptresources(false);
  resp.setAcceptoutputs(false);
  return resp;
}

/** CheckConfig: a missing key fails the preview, naming both ways to set it. */
export function checkConfigResponse(req: provproto.CheckRequest): provproto.CheckResponse {
  const { props } = fromStruct(req.getNews());
  const resp = new provproto.CheckResponse();
  resp.setInputs(req.getNews() ?? toStruct({}));
  const hasKey = (typeof props.apiKey === "string" && props.apiKey !== "") || !!process.env.GUARDRAILS_API_KEY;
  if (!hasKey) {
    const f = new provproto.CheckFailure();
    f.setProperty("apiKey");
    f.setReason(
      "no management API key: set it with `pulumi config set --secret guardrails:apiKey <key>` or the GUARDRAILS_API_KEY environment variable",
    );
    resp.setFailuresList([f]);
  }
  return resp;
}

/** DiffConfig: a change of any setting updates the provider in place; none replaces it. */
export function diffConfigResponse(req: provproto.DiffRequest): provproto.DiffResponse {
  const olds = fromStruct(req.getOldInputs() ?? req.getOlds()).props;
  const news = fromStruct(req.getNews()).props;
  const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])].filter(
    (k) => k !== "version" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]),
  );
  const resp = new provproto.DiffResponse();
  resp.setChanges(
    changed.length > 0 ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
  );
  resp.setDiffsList(changed);
  return resp;
}
