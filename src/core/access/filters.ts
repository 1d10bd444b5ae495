/**
 * Builtin content filters across layers (issue 41): per slug the strongest action and, for
 * `regex-prompt-injection`, the widest scope. Sources: sensitive-info filters "are combined, with
 * blocking taking precedence over redaction" (https://openrouter.ai/docs/guides/features/guardrails,
 * "Guardrail Hierarchy"); `flag` is detect-only ("the detect-only flag action", the SDK's create
 * docs, docs/api-contract.md "Open enums"), so it ranks below both. An action this package does not
 * know (rule 11: an open enum) ranks above `block`: the reading that never claims more access.
 */
import { FILTER_ACTIONS, PROMPT_INJECTION_SLUG } from "../fields/constants";
import type { EffectiveBuiltin, Layer } from "./types";

/** `flag` < `redact` < `block` < anything unknown. */
export function actionRank(action: string): number {
  const i = (FILTER_ACTIONS as readonly string[]).indexOf(action);
  return i < 0 ? FILTER_ACTIONS.length : FILTER_ACTIONS.length - 1 - i;
}

/** Scanning every message is wider than the user's only; absent means every message (Records). */
export const scopeOf = (scanScope: string | null | undefined) => scanScope ?? "all_messages";
const scopeRank = (scope: string) => (scope === "user_only" ? 0 : 1);

/** Every builtin slug any layer holds, with the strongest action and the widest scope, sorted by slug. */
export function combineBuiltins(layers: readonly Layer[]): EffectiveBuiltin[] {
  const bySlug = new Map<string, EffectiveBuiltin>();
  for (const l of layers)
    for (const f of l.settings.contentFilterBuiltins ?? []) {
      const seen = bySlug.get(f.slug);
      const scoped = f.scanScope !== undefined || f.slug === PROMPT_INJECTION_SLUG;
      if (!seen) {
        bySlug.set(f.slug, {
          slug: f.slug,
          action: f.action,
          ...(scoped ? { scanScope: scopeOf(f.scanScope) } : {}),
          from: [l.ref],
          actionFrom: [l.ref],
        });
        continue;
      }
      if (!seen.from.includes(l.ref)) seen.from.push(l.ref);
      const [now, was] = [actionRank(f.action), actionRank(seen.action)];
      if (now > was) Object.assign(seen, { action: f.action, actionFrom: [l.ref] });
      else if (now === was && f.action === seen.action && !seen.actionFrom.includes(l.ref)) seen.actionFrom.push(l.ref);
      if (scoped && scopeRank(scopeOf(f.scanScope)) > scopeRank(seen.scanScope ?? "user_only"))
        seen.scanScope = scopeOf(f.scanScope);
    }
  return [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : 1));
}
