/**
 * `guardrails:index:loadGuardrailFiles`: the declarative route for every language. The plugin
 * reads a folder (or one file) of guardrail YAML/JSON files with the TypeScript face's own loader
 * (src/declarative/load.ts), so a Python, Go or YAML program gets the same validation and the
 * same `file:line:column` problems as `declareGuardrails`, all at once and before any resource.
 * It answers each declared guardrail's stable id and settings; the SDKs' small helpers
 * (`declare_guardrails` in Python, `DeclareGuardrails` in Go) make the resources from it.
 */
import type * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { isAbsolute, resolve } from "node:path";
import { loadGuardrailConfigs } from "../declarative/load";
import { fmt } from "../declarative/source-positions";
import { toStruct } from "./wire";

/** The invoke's token. */
export const LOAD_GUARDRAIL_FILES = "guardrails:index:loadGuardrailFiles";

/** The schema's object types of the answer: one declared guardrail, and a member or key set. */
export const DECLARED_GUARDRAIL_TYPE = "guardrails:index:DeclaredGuardrail";
export const DECLARED_SETTINGS_TYPE = "guardrails:index:DeclaredGuardrailSettings";
export const DECLARED_SET_TYPE = "guardrails:index:DeclaredAssignmentSet";

/** The answer, in the program's names, or the problem with `path` (a check failure). */
export function loadGuardrailFiles(path: unknown): { answer: Record<string, unknown> } | { failure: string } {
  if (typeof path !== "string" || path.trim() === "")
    return { failure: "must be a path (a YAML/JSON file or a folder of them), relative to the program's folder" };
  // The plugin runs in the program's folder: a relative path is the program's, and problems
  // name files relative to it, as declareGuardrails does.
  const guardrails = loadGuardrailConfigs(isAbsolute(path) ? path : resolve(path)).map(({ id, settings, at }) => {
    const { members, keys, ...args } = settings;
    return {
      id,
      at: fmt(at),
      settings: args,
      ...(members ? { members: { ids: members.ids, exclusive: members.exclusive ?? false } } : {}),
      ...(keys ? { keys: { ids: keys.ids, exclusive: keys.exclusive ?? false } } : {}),
    };
  });
  return { answer: { guardrails } };
}

/** The invoke's response: the answer, or a check failure on `path`. */
export function loadGuardrailFilesResponse(
  args: Record<string, unknown>,
  resp: provproto.InvokeResponse,
  failure: () => provproto.CheckFailure,
): provproto.InvokeResponse {
  const out = loadGuardrailFiles(args.path);
  if ("failure" in out) {
    const f = failure();
    f.setProperty("path");
    f.setReason(out.failure);
    resp.setFailuresList([f]);
  } else resp.setReturn(toStruct(out.answer as never));
  return resp;
}

const str = (description: string) => ({ type: "string", description });
const set = (what: string) => ({
  $ref: `#/types/${DECLARED_SET_TYPE}`,
  description: `The ${what} set, when declared.`,
});

/** The schema's entry for the invoke, and its types, given the Guardrail resource's spec: its
 * args, typed as its outputs are (a setting's type and description are the resource's own). */
export function loadGuardrailFilesSchema(guardrail: {
  inputProperties: Record<string, unknown>;
  properties: Record<string, unknown>;
}) {
  const settings = Object.fromEntries(
    Object.entries(guardrail.inputProperties).map(([k, v]) => [k, guardrail.properties[k] ?? v]),
  );
  return {
    function: {
      [LOAD_GUARDRAIL_FILES]: {
        description:
          "Reads one guardrail YAML/JSON file, or every `*.yaml`, `*.yml`, `*.json` file of a folder (docs/guides/declarative-configs.md), and validates them all with the same loader and messages as `declareGuardrails` (every problem at once, with `file:line:column`). Answers each declared guardrail; the Python and Go SDKs' `declare_guardrails` / `DeclareGuardrails` make the resources from it.",
        inputs: {
          properties: { path: str("The file or folder, relative to the program's folder, or absolute.") },
          required: ["path"],
        },
        outputs: {
          properties: {
            guardrails: {
              type: "array",
              items: { $ref: `#/types/${DECLARED_GUARDRAIL_TYPE}` },
              description: "The declared guardrails, in file order.",
            },
          },
          required: ["guardrails"],
        },
      },
    },
    types: {
      [DECLARED_GUARDRAIL_TYPE]: {
        type: "object",
        description: "One guardrail a file declares.",
        properties: {
          id: str("Its stable id (the file's key): the resources' logical names come from it."),
          at: str("Where it is written (`file:line:column`)."),
          settings: { $ref: `#/types/${DECLARED_SETTINGS_TYPE}`, description: "The `Guardrail`'s args." },
          members: set("member"),
          keys: set("key"),
        },
        required: ["id", "at", "settings"],
      },
      [DECLARED_SETTINGS_TYPE]: {
        type: "object",
        description: "A declared guardrail's settings: the `Guardrail` resource's args.",
        properties: settings,
        required: ["name"],
      },
      [DECLARED_SET_TYPE]: {
        type: "object",
        description: "A declared member or key set.",
        properties: {
          ids: { type: "array", items: { type: "string" }, description: "The member user ids or key hashes." },
          exclusive: { type: "boolean", description: "Whether the set owns the guardrail's whole set." },
        },
        required: ["ids", "exclusive"],
      },
    },
  };
}
