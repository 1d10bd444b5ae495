/**
 * A workspace default guardrail's step as the review reads it (issue 27, issue 38). The default
 * is never created nor deleted on the service: a create (and the new side of a replace) writes
 * every setting over the workspace's current default, which the preview does not show, so each
 * restricting setting may loosen; a delete (and the old side of a replace) leaves the settings
 * in force, or resets every one to no restriction when `resetOnDelete` is set, and may when that
 * flag is secret. An import adopts the default as it is and writes nothing.
 */
import { FIELD_NAMES } from "../core/fields/fields";
import { LOOSENING, type Judged } from "../core/fields/loosening";
import { compareSides } from "./judge";
import type { GuardrailChange } from "./model";
import type { GuardrailOfPreview } from "./steps";

/** What falls back where a default's old workspace is reset (Markdown: fixed words). */
const RESET_TO = "no restriction (resetOnDelete)";

/**
 * Each restricting setting of a default this preview takes over, as the program leaves it: set
 * over the current default, or cleared to no restriction; both may loosen, as the current
 * default is not in the preview.
 */
export function takeOver(g: GuardrailOfPreview, c: GuardrailChange): void {
  const after = g.after?.inputs ?? {};
  c.takesOver = true;
  c.judged = FIELD_NAMES.filter((f) => LOOSENING[f].kind !== "neutral").map(
    (field): Judged =>
      after[field] === undefined || after[field] === null
        ? { field, what: "cleared to no restriction (was not in this preview)", direction: "unknown" }
        : {
            field,
            what: "set over the current default (not in this preview) to",
            after: after[field],
            direction: "unknown",
          },
  );
}

/**
 * What a default's reset does to everyone of its workspace without an assignment: each setting
 * against no restriction (it loosens), or, when `resetOnDelete` is secret, may loosen. Nothing
 * when the settings stay in force.
 */
export function resetJudged(g: GuardrailOfPreview): Judged[] {
  if (!g.resets || !g.before) return [];
  const judged = compareSides(g.before, { inputs: {} });
  if (g.resets === true) return judged;
  return judged.map((j) => (j.direction === "loosening" ? { ...j, direction: "unknown" } : j));
}

/** A default replaced (moved to another workspace, say): it takes the new one over, and its old one is reset or left. */
export function replaceDefault(g: GuardrailOfPreview, c: GuardrailChange): void {
  takeOver(g, c);
  const lost = resetJudged(g).filter((j) => j.direction !== "neutral");
  if (lost.length === 0) return;
  c.released = lost;
  c.releases = RESET_TO;
}
