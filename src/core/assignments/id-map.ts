/**
 * The id map of the set resources: now in core/args/id-map.ts, below every kind, since a
 * workspace policy's lists use it too (core/policies/id-maps.ts) and one kind never imports
 * another. Kept here so the set resources' imports stand.
 */
export { assignedIds, toIdMap } from "../args/id-map";
