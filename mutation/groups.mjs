/**
 * The mutation groups of `npm run mutate` (scripts/mutate.mjs) and their floors (issue 31): the
 * lowest mutation score, in percent, each module of the group may have. A score is Stryker's:
 * mutants killed or timed out over mutants killed, timed out, survived or not covered.
 */
export const GROUPS = {
  /** The pure core: the field table and args, the guardrail model and diff, the set plan and state map, the native diff. */
  core: {
    floor: 95,
    modules: [
      "src/core/fields/constants.ts",
      "src/core/fields/field-spec.ts",
      "src/core/fields/fields.ts",
      "src/core/fields/filter-rules.ts",
      "src/core/fields/filters.ts",
      "src/core/fields/loosening.ts",
      "src/core/args/assignment-args.ts",
      "src/core/args/editor-schema.ts",
      "src/core/args/guardrail-args.ts",
      "src/core/args/messages.ts",
      "src/core/args/user-props.ts",
      "src/core/markers.ts",
      "src/core/guardrail/model.ts",
      "src/core/guardrail/model-lists.ts",
      "src/core/guardrail/bodies.ts",
      "src/core/guardrail/changes.ts",
      "src/core/assignments/plan.ts",
      "src/core/assignments/state-map.ts",
      "src/native/diff.ts",
    ],
  },
  /** The client's guards: redaction, pagination, the base URL, retry, body limits. */
  guards: {
    floor: 90,
    modules: [
      "src/core/client/redaction.ts",
      "src/core/client/pagination.ts",
      "src/core/client/page-walk.ts",
      "src/core/client/fetch-in-order.ts",
      "src/core/client/base-url.ts",
      "src/core/client/retry.ts",
      "src/core/client/read-body.ts",
    ],
  },
  /** Everything that turns outside strings into Markdown or file paths. */
  text: {
    floor: 90,
    modules: [
      "src/core/text/controls.ts",
      "src/core/text/markdown.ts",
      "src/preview/render.ts",
      "tools/ci/select.ts",
      "src/declarative/file-name.ts",
      "src/declarative/read-files.ts",
      "src/export/stable-id.ts",
      "src/export/write.ts",
    ],
  },
};
