/**
 * The Pulumi package schema of the native face, as GetSchema serves it: the committed
 * schema.json beside this file, which codegen/pulumi-schema.ts generates from the field table
 * and the args with their JSDoc (`npm run schema`; test/unit/native-schema.test.ts fails when
 * the two drift). Committed rather than built at run time, since the JSDoc is read from the
 * sources, which an installed package does not hold.
 */
import schema from "./schema.json";

/** The package schema's text, as the engine's GetSchema returns it. */
export function packageSchema(): string {
  return JSON.stringify(schema);
}
