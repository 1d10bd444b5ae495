/** Moved to support/spawn-emulator.ts (shared with bench/); re-exported so tests keep their imports. */
export * from "../../support/spawn-emulator";
