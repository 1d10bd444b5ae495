/**
 * Which args of a resource hold a secret, recorded by the resource class in the hidden input
 * `__secretArgs` so that `check` never quotes a secret value (issue 24). The engine strips the
 * secret marks before a dynamic provider sees its inputs (the host accepts no secrets), so the
 * program, where the marks still are, is the only place that can tell.
 */
import * as pulumi from "@pulumi/pulumi";

/**
 * The names of the args whose value is, or holds anywhere inside, a secret output, renamed as
 * the provider sees them (`rename`); resolves to undefined when there are none, so a program
 * without secrets records nothing. Never secret itself: it holds names, not values.
 */
export function secretArgNames(
  args: Record<string, unknown>,
  rename: Record<string, string> = {},
): pulumi.Output<string[] | undefined> {
  const checks = Object.entries(args).map(async ([name, value]) =>
    (await pulumi.isSecret(pulumi.output(value))) ? (rename[name] ?? name) : undefined,
  );
  return pulumi.output(
    Promise.all(checks).then((names) => {
      const secret = names.filter((n): n is string => n !== undefined);
      return secret.length > 0 ? secret : undefined;
    }),
  );
}
