/**
 * Expected failures read as one line. Pulumi's dynamic-provider host prints every error that
 * `check`, `diff`, `read` or `delete` throws to the provider's stderr as `${err}: ${err.stack}`
 * before it hands the error to the engine, which prints `err.message` again (the host in
 * @pulumi/pulumi's cmd/dynamic-provider does this from 3.139 through 3.270). The CLI shows that
 * stderr under the stack resource, so each failure appeared twice, the second time as
 * `Name: X: Name: X` plus a stack trace into dist/. For an expected failure the trace adds
 * nothing to the message, so the provider process drops exactly that stderr text; the engine's
 * own line (resource, operation, the service's message) stays. Bugs keep their trace.
 *
 * This lives behind `pulumi-guardrails/internal`, so it covers the serialized providers that
 * earlier releases wrote into users' state, which call `internal[kind].<method>` by name.
 */
import { UserError } from "../core/user-error";

/** Methods whose errors the host echoes to stderr (`create` and `update` go through its quiet path). */
const ECHOED = new Set(["check", "diff", "read", "delete"]);
/** Echoes waiting to be dropped; bounded, as each error is echoed at most once. */
const pending = new Set<string>();
const MAX_PENDING = 1000;
let filtering = false;

/**
 * An error the user acts on from its message alone: every failure this package raises on
 * purpose extends `UserError` (the API's errors through `GuardrailsError`). Anything else,
 * a plain `Error` included, is a bug and keeps its stack.
 */
export function isExpected(err: unknown): err is UserError {
  return err instanceof UserError;
}

function dropEchoes(): void {
  if (filtering) return;
  filtering = true;
  const original = console.error;
  console.error = function (this: unknown, ...args: unknown[]) {
    if (args.length === 1 && typeof args[0] === "string" && pending.delete(args[0])) return;
    return original.apply(this, args);
  };
}

/** Remembers the exact text the host will print for `err`, so that text is dropped. */
export function expectEcho(err: Error): void {
  dropEchoes();
  if (pending.size >= MAX_PENDING) pending.delete(pending.values().next().value!);
  pending.add(`${err}: ${err.stack}`);
}

/** Wraps each provider method so an expected failure thrown from it is said once, in one line. */
export function quietExpectedErrors<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    wrapped[name] = !ECHOED.has(name)
      ? fn
      : async (...args: never[]) => {
          try {
            return await fn(...args);
          } catch (err) {
            if (isExpected(err)) expectEcho(err);
            throw err;
          }
        };
  }
  return wrapped as T;
}
