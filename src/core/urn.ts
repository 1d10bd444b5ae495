/**
 * The one reader of Pulumi URNs: `urn:pulumi:<stack>::<project>::<qualified type>::<name>`,
 * where the qualified type is the parent types and the resource's own, joined by `$`
 * (`my:Team$guardrails:index:Guardrail`), and the name is everything after the third `::`
 * (Pulumi's own reading: a name may hold `::`). Plain text in, plain data out.
 */

/** A URN's parts. */
export interface UrnParts {
  /** `urn:pulumi:<stack>::<project>`: what every URN of one stack shares. */
  head: string;
  stack: string;
  project: string;
  /** The parent types and the resource's own, joined by `$`. */
  qualifiedType: string;
  /** The resource's own type token (the last part of `qualifiedType`). */
  type: string;
  /** The logical name, as Pulumi reads it (it may hold `::`). */
  name: string;
}

const PREFIX = "urn:pulumi:";

/** A URN's parts; `undefined` for text that is not a URN (fewer than four `::` parts, or another prefix). */
export function parseUrn(urn: string): UrnParts | undefined {
  const parts = urn.split("::");
  if (parts.length < 4 || !parts[0]!.startsWith(PREFIX)) return undefined;
  const qualifiedType = parts[2]!;
  return {
    head: `${parts[0]}::${parts[1]}`,
    stack: parts[0]!.slice(PREFIX.length),
    project: parts[1]!,
    qualifiedType,
    type: qualifiedType.slice(qualifiedType.lastIndexOf("$") + 1),
    name: parts.slice(3).join("::"),
  };
}

/** The resource's own type token of a URN; `""` for text that is not a URN. */
export const typeOfUrn = (urn: string): string => parseUrn(urn)?.type ?? "";

/**
 * The text after a URN's last `::` (the whole text when it has none): the name the preview and
 * the native set claims key resources by. Unlike `parseUrn`'s name it never holds `::`, which the
 * preview's pseudo names (`::outside <id>`, preview/set-sides.ts) rely on: no resource can take
 * one. A name that holds `::` is read by its last part there, as it always was.
 */
export const lastNameOfUrn = (urn: string): string => urn.split("::").pop() ?? urn;
