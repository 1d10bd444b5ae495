/** Moved to support/soak.ts (shared with bench/); re-exported so tests keep their imports. */
export * from "../../support/soak";
