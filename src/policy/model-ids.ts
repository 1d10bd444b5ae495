/**
 * Which model identifiers a `forbidModels` entry covers. The service accepts a model under its
 * slug and under its canonical slug (docs/api-contract.md rule 4), and the catalogue that ties
 * the two is not readable by a policy (no operation lists it). Canonical slugs are the slug
 * with a date (`other-lab/open-model-70b` -> `other-lab/open-model-70b-20250901`), and a
 * catalogue may list `:variant`s (`...:free`) of a model. So an entry covers every identifier
 * of its model family: the same identifier without its `:variant` and its trailing date, in
 * any case. That refuses a dated form that might be another snapshot too (fail closed); an
 * alias of any other shape cannot be recognised and must be listed itself (the rule's
 * messages and docs/guides/policy-packs.md say so).
 */

/** A trailing date: `-20250901`, `-2025-09-01`, `-250901`, or `-0613` / `-2507` (MMDD, YYMM). */
const DATE_SUFFIX = /-(\d{8}|\d{4}-\d{2}-\d{2}|\d{6}|\d{4})$/;

/** The model family of an identifier: trimmed, lower case, without `:variant` and trailing date. */
export function modelFamily(id: string): string {
  let s = id.trim().toLowerCase();
  const colon = s.indexOf(":", s.indexOf("/") + 1);
  if (colon > 0) s = s.slice(0, colon);
  return s.replace(DATE_SUFFIX, "");
}

/** Whether a model identifier is covered by a forbidden entry (`vendor/*`: every model of the vendor). */
export function modelMatches(id: string, pattern: string): boolean {
  const p = pattern.trim().toLowerCase();
  if (p.endsWith("/*")) return id.trim().toLowerCase().startsWith(p.slice(0, -1));
  return modelFamily(id) === modelFamily(p);
}

/** What the rule's messages add about the forms it covers. */
export const FORMS_NOTE =
  "a model's dated canonical slugs and :variants count as the model; an alias of another shape needs the catalogue, so list it in forbidModels too";
