/**
 * `guardrails-export --from-state <file> --language <language>` (issue 42): the program of a
 * native stack's resources, after `pulumi import`, in each language the SDKs speak. One walk
 * of the state (program-walk.ts), one emitter per language.
 */
import { renderGoProgram } from "./program-go";
import { renderPythonProgram } from "./program-python";
import { renderTypeScriptProgram } from "./program-typescript";
import type { PackageSchema } from "./program-walk";
import { renderYamlProgram } from "./program-yaml";

export type { PackageSchema } from "./program-walk";

/** Each language's emitter, by the name `--language` takes (Pulumi's runtime names, and `ts`). */
export const PROGRAM_LANGUAGES = {
  typescript: renderTypeScriptProgram,
  ts: renderTypeScriptProgram,
  python: renderPythonProgram,
  go: renderGoProgram,
  yaml: renderYamlProgram,
} as const satisfies Record<string, (state: unknown, schema: PackageSchema) => { text: string; notes: string[] }>;

/** A language `--language` takes. */
export type ProgramLanguage = keyof typeof PROGRAM_LANGUAGES;

/** Whether `language` is one `--language` takes. */
export const isProgramLanguage = (language: string): language is ProgramLanguage =>
  Object.hasOwn(PROGRAM_LANGUAGES, language);

/** The program in `language`, and a note per resource left out. */
export const renderProgram = (language: ProgramLanguage, state: unknown, schema: PackageSchema) =>
  PROGRAM_LANGUAGES[language](state, schema);
