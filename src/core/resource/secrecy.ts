/**
 * Which args the program made secret, as recorded in a props bag (`__secretArgs`: names, never
 * values; secret-copies.ts says why), and whether that changed since the state was written: a
 * change of secrecy alone is a diff, for every kind.
 */
import { SECRET_ARGS } from "../args/messages";

/** The secret arg names a props bag (inputs or recorded outputs) carries, sorted; [] when none. */
export function recordedSecretArgs(props: object | null | undefined): string[] {
  const names = (props as Record<string, unknown> | null | undefined)?.[SECRET_ARGS];
  return Array.isArray(names) ? [...new Set(names.filter((n): n is string => typeof n === "string"))].sort() : [];
}

/** Whether the program's secret args differ from the ones the state was written with. */
export function secretArgsChanged(recorded: object | null | undefined, news: object): boolean {
  return JSON.stringify(recordedSecretArgs(recorded)) !== JSON.stringify(recordedSecretArgs(news));
}

/** The args secret in the program but not when the state was written, or the other way round. */
export function secrecyChanged(olds: object | null | undefined, news: object): string[] {
  const was = new Set(recordedSecretArgs(olds));
  const now = new Set(recordedSecretArgs(news));
  return [...new Set([...was, ...now])].filter((arg) => was.has(arg) !== now.has(arg)).sort();
}
