/**
 * A 401 says where the refused key came from. `pulumi refresh` (without `--run-program`)
 * and `pulumi destroy` configure the provider with the config recorded in the state at the
 * last update, so a key corrected since then is not the one that was refused; the message
 * says how to make the run use the current config.
 */
import { AuthenticationError } from "./client/errors";
import { resolveSettings } from "./config";

/** A new AuthenticationError naming the key's source, wrapping `err`; other errors pass through. */
export function explainAuthError(err: unknown): unknown {
  if (!(err instanceof AuthenticationError)) return err;
  let source: string;
  try {
    source = resolveSettings().apiKeySource;
  } catch {
    return err;
  }
  const hint =
    source.startsWith("stack config")
      ? "`pulumi refresh` and `pulumi destroy` use the config recorded at the last `pulumi up`; after correcting the key, run `pulumi refresh --run-program` or `pulumi up`"
      : "check the key in that variable (stack config guardrails:apiKey would win over it)";
  return err.wrap(`${err.message}. The service refused the API key from ${source}; ${hint}`);
}

/** Wraps each provider method so a 401 names the key's source. */
export function withKeySource<T extends Record<string, (...args: never[]) => Promise<unknown>>>(methods: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(methods)) {
    wrapped[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw explainAuthError(err);
      }
    };
  }
  return wrapped as T;
}
