/** Moved to support/program.ts (shared with bench/); re-exported so tests keep their imports. */
export * from "../../support/program";
