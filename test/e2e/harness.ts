/** The e2e side of `Program`: the context comes from the global setup. */
import { inject } from "vitest";
import { Program as BaseProgram } from "../helpers/program";

export type { RunResult } from "../helpers/program";
export type Program = BaseProgram;
export const Program = {
  create: (name: string, options?: Parameters<typeof BaseProgram.create>[2]) => BaseProgram.create(inject("e2e"), name, options),
};
