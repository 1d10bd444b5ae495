/**
 * The data sources' part of the package schema (the `functions` map): one entry per invoke
 * token, its inputs and outputs in the program's names.
 */
import { GET_GUARDRAIL } from "./invoke";

type Properties = Record<string, unknown>;

/** The schema's `functions` map, given the guardrail's properties (the settings an output carries). */
export function functionSpecs(guardrailProperties: Properties): Record<string, unknown> {
  const id = { type: "string", description: "The guardrail's id." };
  return {
    [GET_GUARDRAIL]: {
      inputs: { properties: { id }, required: ["id"] },
      outputs: { properties: { id, ...guardrailProperties }, required: ["id"] },
    },
  };
}
