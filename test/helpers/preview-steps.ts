/**
 * Steps of `pulumi preview --json` as the preview and drift summaries read them (src/preview/),
 * written by hand for their unit tests.
 */

/** The URN of one of the package's dynamic resources in stack `prod` of project `p`. */
export const urn = (type: string, name: string) =>
  `urn:pulumi:prod::p::pulumi-nodejs:dynamic/guardrails:${type}::${name}`;

/** A Guardrail's step: `op` on `name` (service id `id`), its inputs before and after. */
export const guardrailStep = (
  op: string,
  name: string,
  id: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
) => ({ op, urn: urn("Guardrail", name), oldState: { id, inputs: before }, newState: { inputs: after } });
