/**
 * Args of the assignment sets as the provider receives them. The resource classes turn the
 * user's id list into a map `{id: true}`, because the engine diffs objects key by key but
 * arrays index by index: a map makes a preview name each id added or removed.
 */
import { z } from "zod";
import { UUID_RE } from "./constants";

export function assignmentArgsSchema(mapName: "members" | "keys", argName: string) {
  return z.strictObject({
    guardrailId: z.string({ error: "must be a guardrail id (UUID)" }).regex(UUID_RE, { error: "must be a guardrail id (UUID)" }),
    [mapName]: z
      // `true` is what programs send; a status string is what `read` records for an id that
      // is not assigned here (the engine diffs refreshed inputs during `pulumi refresh`).
      .record(z.string(), z.union([z.literal(true), z.string()]), { error: `${argName} must be a list of strings` })
      .superRefine((map, ctx) => {
        for (const id of Object.keys(map)) {
          if (id.trim() === "") ctx.addIssue({ code: "custom", message: "ids must be non-empty strings", input: id });
          else if (id.length > 500) ctx.addIssue({ code: "custom", message: "ids must be at most 500 characters", input: id });
        }
      }),
    exclusive: z.boolean({ error: "must be true or false" }).nullish(),
  } as Record<string, z.ZodTypeAny>);
}

export interface AssignmentInputs {
  guardrailId: string;
  ids: Set<string>;
  exclusive: boolean;
}
