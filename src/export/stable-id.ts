/**
 * Stable ids for exported guardrails: derived from the display name, unique across the
 * export, and independent of the order the service lists guardrails in, so a second export
 * gives the same ids (and so the same Pulumi resource names).
 */
import { STABLE_ID_RE } from "../declarative/file-schema";
import { isPolicyFile } from "../declarative/file-name";
import { shown } from "../core/args/messages";
import { UserError } from "../core/user-error";

/** Longest stable id the declarative format accepts. */
const MAX_ID = 63;

/**
 * The name as a stable id: lowercase ASCII letters and digits joined by `-`, accents dropped.
 * An id that would not start with a letter is prefixed `g-`, so it never reads as a YAML
 * number (`007`, `1e3`). Empty when nothing is left (an emoji, punctuation).
 */
export function slugOf(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (base === "") return "";
  const prefixed = /^[a-z]/.test(base) ? base : `g-${base}`;
  return trim(prefixed, MAX_ID);
}

/** Cuts to `max` characters without leaving a trailing `-`. */
function trim(id: string, max: number): string {
  return id.slice(0, max).replace(/-+$/, "");
}

/**
 * Slugs that would make a file nobody reads: `policy` is the organization's rules file, which
 * the loader skips (src/declarative/file-name.ts), and Windows cannot check out a file named
 * after a device (`con.yaml`, `com0.yaml`, `com1.yaml`), whatever its extension. Such a slug is suffixed
 * like a shared one. Slugs are lowercase, so the match is too.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;
const reserved = (slug: string) => WINDOWS_DEVICE.test(slug) || isPolicyFile(`${slug}.yaml`);

/** A guardrail to name: its service id (a UUID) and display name. */
export interface Nameable {
  id: string;
  name: string;
}

/**
 * Assigns each guardrail a stable id. A name that is unique gets its slug; guardrails whose
 * names give the same slug, a reserved one (`policy`, `con`) or no slug at all, all get
 * `<slug>-<first 8 hex of the UUID>`
 * (`guardrail-<8 hex>` without a slug), so no one of them depends on which was listed first.
 * Should even that collide, the whole UUID is used.
 *
 * @returns service id -> stable id.
 */
export function assignStableIds(guardrails: readonly Nameable[]): Map<string, string> {
  const bySlug = new Map<string, Nameable[]>();
  for (const g of guardrails) {
    const slug = slugOf(g.name);
    // Pushed, not spread: thousands of guardrails sharing a name must not cost their square.
    const group = bySlug.get(slug);
    if (group) group.push(g);
    else bySlug.set(slug, [g]);
  }
  const out = new Map<string, string>();
  const taken = new Set<string>();
  const suffixed: Array<[Nameable, string]> = [];
  for (const [slug, group] of bySlug) {
    if (slug !== "" && group.length === 1 && !reserved(slug)) {
      out.set(group[0]!.id, slug);
      taken.add(slug);
    } else for (const g of group) suffixed.push([g, slug]);
  }
  // Sorted by UUID, so the fallback to the whole UUID picks the same guardrail every run. Service
  // ids are unique (they key the map), so no two compare equal.
  suffixed.sort(([a], [b]) => (a.id < b.id ? -1 : 1));
  for (const [g, slug] of suffixed) {
    const hex = g.id.toLowerCase().replace(/[^a-z0-9]/g, "");
    const stem = slug === "" ? "guardrail" : slug;
    let id = `${trim(stem, MAX_ID - 9)}-${hex.slice(0, 8)}`;
    if (taken.has(id) || !STABLE_ID_RE.test(id)) id = trim(`${trim(stem, MAX_ID - hex.length - 1)}-${hex}`, MAX_ID);
    if (taken.has(id) || !STABLE_ID_RE.test(id))
      throw new UserError(
        `cannot derive a unique stable id for guardrail ${shown(g.id)} (${shown(g.name)}): ${id} is taken`,
      );
    out.set(g.id, id);
    taken.add(id);
  }
  return out;
}
