/**
 * `exportGuardrails`: the live guardrails of an organization as declarative files that
 * `declareGuardrails` adopts with no change at all. Reads only; writing the files is
 * `writeExport`, which never overwrites unless told to.
 */
import { GuardrailsClient } from "../core/client/client";
import { resolveSettings, useConcurrency } from "../core/settings/config";
import { UUID_RE } from "../core/fields/constants";
import { shown } from "../core/args/messages";
import { UserError } from "../core/user-error";
import { doubleAssignments } from "./double-assignments";
import { declaredFromLive } from "./declared";
import { idShown } from "./elsewhere";
import { fetchGuardrails, type FetchSelection } from "./fetch";
import type { WireGuardrail } from "../core/client/wire";
import { DEFAULT_SCHEMA_REF, renderGuardrailFile } from "./render";
import { assignStableIds } from "./stable-id";
import { importFileOf, type PulumiImportFile } from "./pulumi-import";
import { writeFiles, type FileToWrite } from "./write";
import { defaultEntries, defaultNotes, WORKSPACE_DEFAULTS_FILE } from "./workspace-defaults";

/** What `exportGuardrails` reads and how it writes the files. */
export interface ExportOptions {
  /** The client to read with. @default one from GUARDRAILS_API_KEY and GUARDRAILS_BASE_URL (as the provider) */
  client?: GuardrailsClient;
  /** Workspace ids to export; the default one also brings the guardrails without a workspace. @default the default workspace */
  workspaces?: string[];
  /** Every workspace the service lists (not with `workspaces`). @default false */
  allWorkspaces?: boolean;
  /** Only the guardrails with these names or ids. @default every guardrail */
  only?: string[];
  /** Leave out the guardrails with these names or ids; one that matches nothing is an error. @default none */
  exclude?: string[];
  /** Sets own the whole current member and key sets (`exclusive: true`). @default false: additive sets, which never remove anyone */
  exclusive?: boolean;
  /** The JSON Schema reference in each file's `yaml-language-server` line. @default "../node_modules/pulumi-guardrails/schema/guardrails.schema.json" */
  schemaRef?: string;
}

/** One exported guardrail, as one file. */
export interface ExportedFile {
  /** The stable id (the key under `guardrails:` and the Pulumi resource name). */
  id: string;
  /** The guardrail's id on the service (`adoptId`). */
  guardrailId: string;
  name: string;
  /** `<id>.yaml`. */
  fileName: string;
  text: string;
}

/** The exported workspaces' configured default guardrails, as one file. */
export interface ExportedDefaults {
  /** `_workspace-defaults.yaml`: fixed, never built from what the service sends. */
  fileName: string;
  text: string;
  /** The workspace ids, the keys under `workspaceDefaults:`, sorted. */
  workspaceIds: string[];
}

/** The files an export produced, and what it could not say back exactly. */
export interface ExportResult {
  /** One per guardrail, sorted by stable id. */
  files: ExportedFile[];
  /** The configured default guardrails of the exported workspaces; absent when none is configured (or with `only`). */
  workspaceDefaults?: ExportedDefaults;
  /** Every guardrail, and the workspace defaults, in one file (what `--stdout` prints). */
  combined: string;
  /** Why some guardrail would not adopt as an exact no-op, each naming the guardrail and the field. */
  warnings: string[];
  /** What happened to each guardrail older than workspaces: exported, or left out and how to include it. */
  notes: string[];
  /** The same guardrails and sets as the file `pulumi import --file` takes, for the native face (`renderImportFile`). */
  pulumiImport: PulumiImportFile;
}

/** A bad option, caught before any call. */
export class ExportOptionsError extends UserError {}

export { ExportConflictError, ExportTargetError } from "./write";

/** Reads the selected guardrails with their sets and renders them. Makes GET calls only. */
export async function exportGuardrails(options: ExportOptions = {}): Promise<ExportResult> {
  const selection = checkOptions(options);
  const client = options.client ?? clientFromEnv();
  try {
    const { live, leftOut, defaultUnknown, defaults: read } = await fetchGuardrails(client, selection);
    // `only` names guardrails; the workspaces' defaults are left out, and the notes say so.
    const defaults = selection.only.length > 0 ? [] : read;
    const wd = defaultEntries(defaults);
    const ids = assignStableIds(live.map((l) => l.guardrail));
    const warnings = [...doubleAssignments(live, ids), ...wd.warnings];
    const entries = live
      .map((l) => {
        const id = ids.get(l.guardrail.id)!;
        const declared = declaredFromLive(l, options.exclusive ?? false);
        for (const w of declared.warnings)
          warnings.push(`guardrail ${shown(l.guardrail.name)} (${id}, ${idShown(l.guardrail.id)}): ${w}`);
        return { id, live: l, settings: declared.settings };
      })
      .sort((a, b) => (a.id < b.id ? -1 : 1));
    const schemaRef = options.schemaRef ?? DEFAULT_SCHEMA_REF;
    return {
      files: entries.map((e) => ({
        id: e.id,
        guardrailId: e.live.guardrail.id,
        name: e.live.guardrail.name,
        fileName: `${e.id}.yaml`,
        text: renderGuardrailFile([[e.id, e.settings]], schemaRef),
      })),
      ...(wd.entries.length > 0
        ? {
            workspaceDefaults: {
              fileName: WORKSPACE_DEFAULTS_FILE,
              text: renderGuardrailFile([], schemaRef, wd.entries),
              workspaceIds: wd.entries.map(([id]) => id),
            },
          }
        : {}),
      combined: renderGuardrailFile(
        entries.map((e) => [e.id, e.settings] as const),
        schemaRef,
        wd.entries,
      ),
      warnings,
      pulumiImport: importFileOf(live, ids, options.exclusive ?? false, wd.kept),
      notes: [
        ...legacyNotes(
          entries.map((e) => [e.id, e.live.guardrail] as const),
          leftOut,
          defaultUnknown,
        ),
        ...defaultNotes(selection, defaultUnknown, read.length, defaults.length),
      ],
    };
  } finally {
    if (!options.client) await client.close();
  }
}

/** The options as a selection, every bad value refused before any call. */
export function checkOptions(options: ExportOptions): FetchSelection {
  const workspaces = options.workspaces ?? [];
  const only = options.only ?? [];
  const exclude = options.exclude ?? [];
  const allWorkspaces = options.allWorkspaces ?? false;
  for (const w of workspaces)
    if (typeof w !== "string" || !UUID_RE.test(w))
      throw new ExportOptionsError(
        `workspace ${JSON.stringify(w)} is not a workspace id; expected a UUID such as 3f2b8c1e-0000-4000-8000-000000000000`,
      );
  for (const [what, values] of [
    ["only", only],
    ["exclude", exclude],
  ] as const) {
    for (const o of values)
      if (typeof o !== "string" || o === "")
        throw new ExportOptionsError(`${what} ${JSON.stringify(o)}: expected a guardrail name or id`);
  }
  if (allWorkspaces && workspaces.length > 0)
    throw new ExportOptionsError("--all-workspaces reads every workspace; drop --workspace, or --all-workspaces");
  return { workspaces, allWorkspaces, only, exclude };
}

/**
 * What happens to guardrails older than workspaces (contract rule 10), said either way: one
 * exported has no `workspaceId` in its file, which is how the provider adopts it; one left out
 * is named with the options that would include it.
 */
function legacyNotes(
  exported: ReadonlyArray<readonly [string, WireGuardrail]>,
  leftOut: readonly WireGuardrail[],
  defaultUnknown: boolean,
): string[] {
  // The default workspace is told by the workspace its guardrails carry; with none, it cannot be.
  const why = defaultUnknown
    ? "the service lists it with the default workspace, and no guardrail there carries that workspace's id, so the export cannot tell whether --workspace named it; run without --workspace or pass --all-workspaces to export it"
    : "the service lists it with the default workspace, which --workspace did not name; run without --workspace, name the default workspace, or pass --all-workspaces to export it";
  return [
    ...exported
      .filter(([, g]) => !g.workspace_id)
      .map(
        ([id, g]) =>
          `guardrail ${shown(g.name)} (${id}, ${idShown(g.id)}) has no workspace (it is older than workspaces): exported without workspaceId, which is how it adopts; the service lists it with the default workspace`,
      ),
    ...leftOut.map(
      (g) =>
        `guardrail ${shown(g.name)} (${idShown(g.id)}) has no workspace (it is older than workspaces) and was not exported: ${why}`,
    ),
  ];
}

/**
 * Writes each file into `dir` (created if missing), never through a link and never outside
 * `dir`. Before writing anything it refuses a link (dangling or not), anything but a regular
 * file, and, without `force`, any file that exists, naming them all.
 *
 * @throws ExportTargetError for a link or a target that is not a file, even with `force`.
 * @throws ExportConflictError without `force`, when any of the files exists.
 * @returns the paths written.
 */
export function writeExport(dir: string, files: readonly FileToWrite[], options: { force?: boolean } = {}): string[] {
  return writeFiles(dir, files, options);
}

/** The provider's env vars; the message names what is missing, never the key. */
export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): GuardrailsClient {
  const missing = ["GUARDRAILS_API_KEY", "GUARDRAILS_BASE_URL"].filter((v) => !env[v]);
  if (missing.length > 0)
    throw new ExportOptionsError(`set ${missing.join(" and ")} (the same env vars as the provider)`);
  const s = resolveSettings(env);
  useConcurrency(s); // the same one budget per process as the provider (issue 29)
  return new GuardrailsClient({
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    ...(s.maxAttempts ? { retry: { maxAttempts: s.maxAttempts } } : {}),
    ...(s.timeoutMs ? { timeoutMs: s.timeoutMs } : {}),
  });
}
