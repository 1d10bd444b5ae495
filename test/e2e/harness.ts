/** The e2e side of `Program`: the context comes from the global setup. */
import { afterAll, beforeAll, inject } from "vitest";
import { Program as BaseProgram } from "../helpers/program";

export type { RunResult } from "../helpers/program";
export type Program = BaseProgram;
export const Program = {
  create: (name: string, options?: Parameters<typeof BaseProgram.create>[2]) =>
    BaseProgram.create(inject("e2e"), name, options),
};

/**
 * The set-up of an e2e file (call it in a describe): one Program for the file's tests, created
 * in beforeAll (then, with `up`, that program written and brought up) and closed in afterAll
 * (after `pulumi destroy`, with `destroy`). Answers a stand-in that forwards every property and
 * method to the Program once beforeAll has made it.
 */
export function useProgram(
  name: string,
  o: { create?: Parameters<typeof BaseProgram.create>[2]; up?: string; destroy?: boolean } = {},
): Program {
  let program: Program | undefined;
  beforeAll(async () => {
    program = await Program.create(name, o.create);
    if (o.up !== undefined) {
      program.write(o.up);
      await program.up();
    }
  });
  afterAll(async () => {
    if (o.destroy) await program!.destroy();
    await program!.close();
  });
  return new Proxy({} as Program, {
    get(_, key) {
      if (!program) throw new Error(`e2e program "${name}" used before its beforeAll ran`);
      const value: unknown = Reflect.get(program, key, program);
      return typeof value === "function" ? value.bind(program) : value;
    },
  });
}
