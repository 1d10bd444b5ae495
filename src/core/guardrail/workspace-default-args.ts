/**
 * The args of a workspace's default guardrail (docs/api-contract.md rules 17-21): the
 * Guardrail's settings, from the same field table and with the same rules, but `name`
 * optional (the service names it `Workspace <id> Default`), `workspaceId` required and given
 * as an id or a slug, and `resetOnDelete`. Pure: no client.
 */
import { z } from "zod";
import type { ArgDoc } from "../arg-doc";
import { guardrailSettingsShape, limitNeedsInterval, type GuardrailInputs } from "../args/guardrail-args";
import { UUID_RE } from "../fields/constants";
import type { FieldName } from "../fields/fields";

/** A workspace slug as this package sends it: URL-friendly, so it is one path segment as written. */
const SLUG_RE = /^[a-z0-9][a-z0-9_-]{0,99}$/i;

const { name, workspaceId: _placement, ...settings } = guardrailSettingsShape;

export const workspaceDefaultArgsSchema = z
  .strictObject({
    workspaceId: z
      .string({ error: "must be a workspace id (UUID) or slug" })
      .refine((v) => UUID_RE.test(v) || SLUG_RE.test(v), {
        error: "must be a workspace id (UUID) or slug (letters, digits, - and _, at most 100 characters)",
      }),
    name: name.nullish().transform((v) => v ?? undefined),
    ...settings,
    resetOnDelete: z
      .boolean({ error: "must be true or false" })
      .nullish()
      .transform((v) => v ?? undefined),
  })
  .superRefine(limitNeedsInterval);

/**
 * The docs of the args a Guardrail does not have, or has with other docs (`name` is optional
 * here): every other arg is a setting of the field table, documented there. A new arg does not
 * compile until it is described here. src/dynamic/workspace-default.ts repeats them as JSDoc
 * for the IDE (test/unit/arg-docs.test.ts holds the copies equal).
 */
export const WORKSPACE_DEFAULT_ARG_DOCS: Record<
  Exclude<keyof typeof workspaceDefaultArgsSchema.shape, Exclude<FieldName, "name">>,
  ArgDoc
> = {
  workspaceId: {
    text: "The workspace whose default guardrail this is: its id (UUID, any case) or its slug. State records the id, so a slug that names the same workspace is no change. **Another workspace replaces the resource.**",
  },
  name: {
    text: "Display name, 1 to 200 characters. When omitted, the service's name stands (it names a default guardrail `Workspace <id> Default`), and a name changed by hand is left alone.",
    fallback: "the service's name",
  },
  resetOnDelete: {
    text: "What a delete (`pulumi destroy`, or removing the resource) does on the service. false: the resource leaves the state and the settings stay in force (the guardrail cannot be deleted). true: every setting but the name and description is first set back to no restriction.",
    fallback: "false",
  },
};

/** A workspace default guardrail's args after `check`. */
export type WorkspaceDefaultInputs = z.output<typeof workspaceDefaultArgsSchema>;

/** Whether a workspace reference is an id (compared as a UUID) rather than a slug. */
export const isWorkspaceUuid = (ref: string): boolean => UUID_RE.test(ref);

/**
 * The settings as the Guardrail's lifecycle pieces take them (model.ts, changes.ts,
 * bodies.ts). An omitted name is left to the service: it takes the name `held` (the one the
 * service holds, or null when never written), so it never shows as a change or gets sent.
 */
export function asGuardrailInputs(inputs: WorkspaceDefaultInputs, held: string | null | undefined): GuardrailInputs {
  const { workspaceId: _workspace, resetOnDelete: _reset, name: given, ...rest } = inputs;
  return { ...rest, name: (given ?? held ?? null) as string, workspaceId: undefined, adoptId: undefined };
}
