/**
 * Fuzzing with fast-check: the declarative loader and the PR summary, the two surfaces that
 * read files anyone can send in a pull request. Nothing crashes with a raw error, every
 * problem names its file, nothing echoes a control character, and no summary goes live.
 */
import fc from "fast-check";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { DeclarativeConfigError, loadGuardrailConfigs } from "../../src/declarative/load";
import { summarize } from "../../src/preview/summary";

const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "x\n\n**Guardrails: no changes.**\n\n<!--",
    "`@security-team`",
    "<script>",
    "\u001b[31mred",
    "007",
    "1",
    "true",
    "~",
    "*a",
    "&a x",
    "# h",
    "a|b",
    "@admins",
    "\u2028",
  ),
);
const settingValue = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(hostileString, { maxLength: 4 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);
const guardrail = fc.dictionary(
  fc.oneof(
    fc.constantFrom("name", "limitUsd", "members", "keys", "workspaceId", "contentFilters", "allowedModels"),
    hostileString,
  ),
  fc.oneof(settingValue, fc.record({ ids: fc.array(fc.oneof(hostileString, fc.integer()), { maxLength: 5 }) })),
  { maxKeys: 5 },
);
const configFile = fc.oneof(
  fc
    .record({
      guardrails: fc.dictionary(fc.oneof(fc.stringMatching(/^[a-z0-9][a-z0-9_-]{0,8}$/), hostileString), guardrail, {
        maxKeys: 4,
      }),
    })
    .map((v) => stringify(v)),
  hostileString,
  fc.constantFrom(
    "a: &a [1,1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nguardrails: *c\n",
    'guardrails:\n  1:\n    name: x\n  "1":\n    name: y\n',
    '{"guardrails": {"a": {"name": "x"}, "a": {}}}',
  ),
);

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("fuzz: declarative loader", () => {
  it("random files give loaded guardrails or a DeclarativeConfigError whose every problem names its file, printable", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("a.yaml", "b.yml", "c.json", "d.yaml"), configFile), {
          minLength: 1,
          maxLength: 3,
        }),
        (files) => {
          const dir = mkdtempSync(join(tmpdir(), "gr-fuzz-"));
          dirs.push(dir);
          for (const [name, text] of files) writeFileSync(join(dir, name), text);
          try {
            loadGuardrailConfigs(dir, { cwd: dir });
          } catch (err) {
            expect(err).toBeInstanceOf(DeclarativeConfigError);
            for (const p of (err as DeclarativeConfigError).problems) {
              expect(p).toMatch(/^[a-d]\.(yaml|yml|json)(:\d+:\d+)?: /);
              expect(p).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});

/** Markdown outside code spans, where it is live. */
const live = (md: string) => md.replace(/`[^`\n]*`/g, "");
const types = fc.constantFrom("Guardrail", "GuardrailMemberAssignment", "GuardrailKeyAssignment", "Other");
const stateOf = fc.record(
  {
    id: fc.oneof(hostileString, fc.constant(undefined)),
    inputs: fc.oneof(
      fc.dictionary(fc.constantFrom("name", "limitUsd", "guardrailId", "members", "keys", "description"), settingValue),
      settingValue,
    ),
    outputs: fc.oneof(
      fc.dictionary(
        fc.constantFrom("name", "members", "keys"),
        fc.oneof(settingValue, fc.dictionary(hostileString, fc.oneof(fc.constant(true), hostileString))),
      ),
      settingValue,
    ),
  },
  { requiredKeys: [] },
);
const step = fc.record(
  {
    op: fc.constantFrom("create", "update", "replace", "delete", "same", "read", "refresh", "create-replacement"),
    urn: fc.tuple(types, hostileString).map(([t, n]) => `urn:pulumi:s::p::pulumi-nodejs:dynamic/guardrails:${t}::${n}`),
    oldState: stateOf,
    newState: stateOf,
  },
  { requiredKeys: ["op", "urn"] },
);
const preview = fc.oneof(
  fc.record({ steps: fc.array(step, { maxLength: 6 }) }),
  fc.anything(),
  fc.record({
    steps: fc.array(step, { maxLength: 3 }),
    diagnostics: fc.array(fc.record({ severity: fc.constantFrom("error", "warning", "info"), message: hostileString })),
  }),
);

describe("fuzz: PR summary", () => {
  it("any input gives a summary: one headline, nothing live outside code spans, no control characters", () => {
    fc.assert(
      fc.property(preview, (input) => {
        const { markdown, failed } = summarize(input);
        const lines = markdown.split("\n");
        // The opening line (what loosens) first, or the failed / no-changes headline.
        expect(lines[0]).toMatch(/^\*\*(Guardrails: |🔓 Loosens:\*\* |❔ May loosen\*\* |🔒 Nothing loosens)/u);
        expect(lines.filter((l) => l.startsWith("**Guardrails"))).toHaveLength(1);
        expect(live(markdown)).not.toMatch(/(^|[^\\])[<>]/);
        expect(live(markdown)).not.toMatch(/@[a-z0-9]/i);
        expect(markdown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
        if (typeof input !== "object" || input === null || Array.isArray(input)) expect(failed).toBe(true);
        if (failed) expect(lines[0]).toMatch(/^\*\*Guardrails: preview failed\.\*\* /);
      }),
      { numRuns: 500 },
    );
  });
});
