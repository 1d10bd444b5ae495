/**
 * The one base of every failure meant for a person: a message that says what is wrong and how
 * to fix it, to which a stack trace adds nothing (config, validation, adoption, a refused
 * 404, and every API error, which extend it through `GuardrailsError`). "Is this expected?"
 * is `instanceof UserError` (expected-errors.ts for the dynamic face, `failureText` for the
 * commands); anything else is a bug and keeps its stack.
 *
 * No imports: the client, the loader and the policy pack all build on it, and the PR summary
 * loads it without the HTTP client.
 */

/** A failure meant for a person: said in one line, without a stack trace. */
export class UserError extends Error {
  /**
   * Read by `@pulumi/pulumi` (`RunError.isInstance`): thrown in a program, it ends the run with
   * the message alone, neither `util.inspect` in colour nor a stack trace.
   */
  declare readonly __pulumiRunError: true;

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

// On the prototype, so no error object carries an own property that inspection would print.
Object.defineProperty(UserError.prototype, "__pulumiRunError", { value: true });

/** What a command prints for a failure: the message alone when it is meant for a person, else a bug's stack trace. */
export function failureText(err: unknown): string {
  if (err instanceof UserError) return err.message;
  return err instanceof Error ? (err.stack ?? String(err)) : String(err);
}
