/**
 * The model catalogue: each model has a `slug` and a `canonical_slug` (docs/api-contract.md rule 4).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";

/** A model of the emulator's catalogue: its slug and its canonical (dated) slug. */
export interface CatalogueModel {
  slug: string;
  canonical_slug: string;
}

/** A small built-in catalogue. The vendor names are the spec's neutral markers. */
export const DEFAULT_MODELS: CatalogueModel[] = [
  { slug: "vendor-a/model-x", canonical_slug: "vendor-a/model-x-20260115" },
  { slug: "vendor-a/model-x-mini", canonical_slug: "vendor-a/model-x-mini-20260115" },
  { slug: "vendor-a/model-y", canonical_slug: "vendor-a/model-y-20251020" },
  { slug: "vendor-b/model-m", canonical_slug: "vendor-b/model-m-20260201" },
  { slug: "vendor-b/model-m-fast", canonical_slug: "vendor-b/model-m-fast-20260201" },
  { slug: "vendor-c/model-q", canonical_slug: "vendor-c/model-q-20251111" },
  { slug: "other-lab/open-model-70b", canonical_slug: "other-lab/open-model-70b-20250901" },
  { slug: "other-lab/open-model-8b", canonical_slug: "other-lab/open-model-8b-20250901" },
];

const catalogueFile = z.array(z.object({ slug: z.string().min(1), canonical_slug: z.string().min(1) })).min(1);

/** Reads a `--models` file: a JSON array of `{slug, canonical_slug}`. */
export function loadCatalogue(path: string): CatalogueModel[] {
  const parsed = catalogueFile.safeParse(JSON.parse(readFileSync(path, "utf8")));
  if (!parsed.success) {
    throw new Error(`--models ${path}: expected a non-empty JSON array of {slug, canonical_slug}`);
  }
  return parsed.data;
}

/** Resolves a model identifier (slug or canonical) to its canonical slug, or undefined. */
export function catalogueIndex(models: CatalogueModel[]): Map<string, string> {
  const index = new Map<string, string>();
  for (const m of models) {
    index.set(m.slug, m.canonical_slug);
    index.set(m.canonical_slug, m.canonical_slug);
  }
  return index;
}
