/** Moved to support/pulumi-template.ts (shared with bench/); re-exported so tests keep their imports. */
export * from "../../support/pulumi-template";
