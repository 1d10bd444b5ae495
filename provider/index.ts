export * from "./client";
export type * from "./schema/wire";
