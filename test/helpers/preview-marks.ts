/** Reading the text of a `pulumi preview --diff`. */

/** The lines of one resource's part of a preview that mark a change, trimmed and with white space folded. */
export function marked(stdout: string, resource: string): string[] {
  const block =
    stdout
      .split("--outputs:--")[0]!
      .split("\nResources:")[0]!
      .split(/\n(?=\s+[~+-]?\s*pulumi)/)
      .find((b) => b.includes(`::${resource}]`)) ?? "";
  return block
    .split("\n")
    .filter((l) => /^\s+[~+-] \S/.test(l) && !l.includes("pulumi-nodejs"))
    .map((l) => l.trim().replace(/\s+/g, " ").replace(/ :/, ":"));
}
