/**
 * The Python program of a stack's native resources, from its state (`pulumi stack export`), for
 * `guardrails-export --from-state <file> --language python` (issue 42). After `pulumi import`,
 * Pulumi's `--generate-code` asks the project's language host to write the program; the Python
 * host this repository's tests build (sdk v3.68.0) answers `GenerateProgram not implemented`, and
 * so may others. The state holds what the program must say: `Read` records exactly the args a
 * program writes to match (docs/faces/native.md), so the program printed here previews with no
 * change. Each resource keeps the state's `protect` (an import protects by default).
 *
 * Args become keyword arguments in the Python SDK's names (`limitUsd` is `limit_usd`), nested
 * objects dicts with snake_case keys (the SDK's `...ArgsDict`), a set's `guardrailId` the
 * guardrail's `.id` when that guardrail is in the program. A secret arg, read from
 * `pulumi stack export --show-secrets`, is written `pulumi.Output.secret(...)`; from a plain
 * export it cannot be known, and the program is refused naming it.
 */
import { KINDS, NATIVE_TYPE_PREFIX } from "../core/kinds";
import { isSecretEnvelope } from "../core/markers";
import { parseUrn } from "../core/urn";
import { UserError } from "../core/user-error";
import { StateMigrationError, stateResources } from "./from-state";

/** `limitUsd` as the Python SDK spells it: `limit_usd` (`enforceZdrVendorA`: `enforce_zdr_vendor_a`). */
export const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

const PY_KEYWORDS = new Set(
  "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield pulumi guardrails".split(
    " ",
  ),
);

/** A Python variable for a logical name: letters, digits and `_`, not a keyword, not taken. */
function variableOf(name: string, taken: Set<string>): string {
  let v = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(?=[0-9])/, "_") || "_";
  if (PY_KEYWORDS.has(v)) v = `${v}_`;
  const base = v;
  for (let i = 2; taken.has(v); i++) v = `${base}_${i}`;
  taken.add(v);
  return v;
}

/** Where a secret sits that the export does not reveal: the program cannot be written (caught below, and named). */
export class SecretNotShownError extends UserError {}

/** A value as a Python literal; objects as dicts with the SDK's snake_case keys. */
function literal(value: unknown): string {
  if (isSecretEnvelope(value)) {
    const plaintext = (value as { plaintext?: unknown }).plaintext;
    if (typeof plaintext !== "string") throw new SecretNotShownError("a secret the export does not show");
    let parsed: unknown;
    try {
      parsed = JSON.parse(plaintext);
    } catch {
      // JSON.parse's message quotes the text: the secret. Name only where it is.
      throw new StateMigrationError("a secret whose plaintext is not JSON, as `pulumi stack export` writes it");
    }
    return `pulumi.Output.secret(${literal(parsed)})`;
  }
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") {
    // JSON's 1e999 reads as Infinity: None would drop the arg, so it is refused.
    if (!Number.isFinite(value)) throw new StateMigrationError("a number out of range");
    return String(value);
  }
  // JSON's string escapes are Python's too (\" \\ \n \uXXXX).
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${JSON.stringify(snakeCase(k))}: ${literal(v)}`,
  );
  return `{${entries.join(", ")}}`;
}

/**
 * A resource of ours that stateResources cannot read (its URN holds control characters, or is
 * too long) would be missing from the program, and `pulumi up` of the pasted program deletes
 * what it lacks: refused, naming it.
 */
function refuseUnreadable(state: unknown): void {
  const doc = state as { deployment?: { resources?: unknown }; resources?: unknown } | null;
  const list = doc?.deployment?.resources ?? doc?.resources;
  if (!Array.isArray(list)) return;
  const read = new Set(stateResources(state));
  for (const r of list as Array<{ type?: unknown; urn?: unknown }>) {
    if (read.has(r as never) || typeof r?.type !== "string" || classOf(r.type) === undefined) continue;
    throw new StateMigrationError(
      `cannot write the program: the ${r.type} ${JSON.stringify(r.urn)} has no URN this command reads (control characters, or too long)`,
    );
  }
}

/** The class name of a native token (`guardrails:index:Guardrail`), when it is one of ours. */
function classOf(type: string): string | undefined {
  return Object.values(KINDS).some((k) => k.nativeToken === type) ? type.slice(NATIVE_TYPE_PREFIX.length) : undefined;
}

/** A set's `guardrailId` names a guardrail; a set comes after the guardrails, so it can name one's variable. */
const isSet = (type: string) =>
  Object.values(KINDS).some((k) => k.nativeToken === type && (k as { set?: unknown }).set !== undefined);

/**
 * The program, and a note per resource left out. `argsOf` names each native token's args (the
 * package schema's `inputProperties`): the state's inputs also hold the face's bookkeeping (a
 * set's id map beside its list), which is no arg, and the program leaves it out.
 */
export function renderPythonProgram(
  state: unknown,
  argsOf: (token: string) => ReadonlySet<string> | undefined,
): { text: string; notes: string[] } {
  const notes: string[] = [];
  refuseUnreadable(state);
  const ours = stateResources(state).filter((r) => {
    if (classOf(r.type) === undefined || r.custom === false) return false;
    if (r.delete === true || r.external === true) {
      notes.push(`left out ${r.urn}: ${r.delete === true ? "pending delete" : "read, not managed"}`);
      return false;
    }
    return true;
  });
  // Guardrails first, so a set can name its guardrail's variable.
  ours.sort((a, b) => Number(isSet(a.type)) - Number(isSet(b.type)));
  const taken = new Set<string>();
  const byId = new Map<string, string>();
  const lines = ["import pulumi", "import pulumi_guardrails as guardrails", ""];
  for (const r of ours) {
    // Pulumi's reading: the name is all after the type, `::` and all.
    const name = parseUrn(r.urn)?.name ?? r.urn.slice(r.urn.lastIndexOf("::") + 2);
    const variable = variableOf(name, taken);
    const args = argsOf(r.type) ?? new Set<string>();
    const kwargs: string[] = [];
    for (const [k, v] of Object.entries((r.inputs ?? {}) as Record<string, unknown>)) {
      if (!args.has(k) || v === null || v === undefined) continue;
      const ref = k === "guardrailId" && typeof v === "string" ? byId.get(v) : undefined;
      try {
        kwargs.push(`    ${snakeCase(k)}=${ref ? `${ref}.id` : literal(v)},`);
      } catch (err) {
        if (err instanceof SecretNotShownError)
          throw new StateMigrationError(
            `${name}: ${k} is secret and this export does not show it; export with \`pulumi stack export --show-secrets\``,
          );
        if (err instanceof StateMigrationError) throw new StateMigrationError(`${name}: ${k} holds ${err.message}`);
        throw err;
      }
    }
    if (r.protect === true) kwargs.push("    opts=pulumi.ResourceOptions(protect=True),");
    lines.push(`${variable} = guardrails.${classOf(r.type)}(`, `    ${JSON.stringify(name)},`, ...kwargs, ")");
    if (typeof r.id === "string") byId.set(r.id, variable);
  }
  return { text: `${lines.join("\n")}\n`, notes };
}
