/**
 * An arg's docs, kept beside its schema in the core (issue 39): the docs tables, the native
 * schema (and so the Python, Go and TypeScript SDKs) read them from there by import. The field
 * table's own docs are the JSDoc of its entries (fields/fields.ts), which the IDE shows through
 * the dynamic face's mapped arg types.
 */
export interface ArgDoc {
  /** What the arg is and does, in the program's names. */
  text: string;
  /** What leaving the arg out means (the `@default` of the dynamic face's JSDoc). */
  fallback?: string;
  /** The native face's text where it says something else (its `import` works; the dynamic face's does not). */
  native?: string;
}
