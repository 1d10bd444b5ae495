/**
 * Attack pass on `guardrails-export --from-state <file> --language <language>` (issue 42): what
 * the state holds beyond a resource's args that the program must mean too, and the refusals'
 * text. A resource under a component (its URN holds the parent's type) or on an explicit
 * provider, written bare, is another resource or another account: `pulumi up` of the pasted
 * program would create the bare one and delete the one in the state. Refused, naming it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type PackageSchema, PROGRAM_LANGUAGES, renderProgram, StateMigrationError } from "../../src/export";
import { REPO_ROOT } from "../../support/spawn-emulator";

const G = "3f2b8c1e-0000-4000-8000-000000000001";
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "src/native/schema.json"), "utf8")) as PackageSchema;
const HEAD = "urn:pulumi:dev::adopt";
const guardrail = (extra: object, urn = `${HEAD}::guardrails:index:Guardrail::eng`) => ({
  urn,
  type: "guardrails:index:Guardrail",
  custom: true,
  id: G,
  inputs: { name: "Engineering" },
  ...extra,
});
const stateOf = (...resources: object[]) => ({ version: 3, deployment: { resources } });
const languages = Object.keys(PROGRAM_LANGUAGES) as Array<keyof typeof PROGRAM_LANGUAGES>;
const refusal = (language: keyof typeof PROGRAM_LANGUAGES, state: object): string => {
  try {
    renderProgram(language, state, schema);
  } catch (err) {
    expect(err).toBeInstanceOf(StateMigrationError);
    return (err as Error).message;
  }
  throw new Error(`${language}: written, not refused`);
};
/** What a terminal acts on or a reader cannot see: C0, DEL, C1, bidi and zero-width controls. */
const RAW = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/;

describe("export --language: what the state holds besides the args", () => {
  it("refuses a resource under a component, whose URN a bare program would not match", () => {
    const state = stateOf(
      guardrail({ parent: `${HEAD}::my:Team::team` }, `${HEAD}::my:Team$guardrails:index:Guardrail::eng`),
    );
    for (const language of languages) expect(refusal(language, state)).toMatch(/^eng: .*parent/);
  });

  it("refuses a resource on an explicit provider, which a bare program would move to the default one", () => {
    const state = stateOf(guardrail({ provider: `${HEAD}::pulumi:providers:guardrails::prod::0c1d` }));
    for (const language of languages) expect(refusal(language, state)).toMatch(/^eng: .*provider/);
  });

  it.each([
    ["retainOnDelete", true],
    ["deletedWith", `${HEAD}::guardrails:index:Guardrail::other`],
    ["ignoreChanges", ["limitUsd"]],
    ["customTimeouts", { create: 60 }],
  ])("refuses an option the program would drop: %s", (option, value) => {
    const state = stateOf(guardrail({ [option]: value }));
    for (const language of languages)
      expect(refusal(language, state)).toBe(
        `eng: its state sets the resource option \`${option}\`, which this command does not write: add it to the program by hand`,
      );
  });

  it("writes a resource whose options say nothing (false, empty), and protect", () => {
    const state = stateOf(
      guardrail({ retainOnDelete: false, ignoreChanges: [], customTimeouts: { create: 0 }, protect: true }),
    );
    for (const language of languages) expect(renderProgram(language, state, schema).text).toMatch(/protect/i);
  });

  it("a resource named __debug__ is a Python variable that parses; a YAML guardrail named pulumi is no reference", () => {
    const set = {
      urn: `${HEAD}::guardrails:index:GuardrailMemberAssignment::m`,
      type: "guardrails:index:GuardrailMemberAssignment",
      custom: true,
      id: "m",
      inputs: { guardrailId: G, memberUserIds: ["user_a"] },
    };
    const python = renderProgram(
      "python",
      stateOf(guardrail({}, `${HEAD}::guardrails:index:Guardrail::__debug__`), set),
      schema,
    ).text;
    expect(python).not.toMatch(/^__debug__ =/m);
    expect(python).toContain('"__debug__"');
    const yaml = renderProgram(
      "yaml",
      stateOf(guardrail({}, `${HEAD}::guardrails:index:Guardrail::pulumi`), set),
      schema,
    ).text;
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Pulumi YAML's reference, not a template
    expect(yaml).not.toContain("${pulumi.id}");
    expect(yaml).toContain(`guardrailId: "${G}"`);
  });

  it("writes a resource on the default provider, of any version", () => {
    const state = stateOf(guardrail({ provider: `${HEAD}::pulumi:providers:guardrails::default_0_6_0::0c1d` }));
    for (const language of languages) expect(renderProgram(language, state, schema).text).toContain("Engineering");
  });
});

describe("export --language: a hostile state's text never reaches the terminal raw", () => {
  it("escapes C1 and bidi controls, and cuts a huge URN, in the refusal of an unreadable resource", () => {
    const urn = `${HEAD}::guardrails:index:Guardrail::\u009b31m\u202eeng${"x".repeat(10_000)}`;
    const message = refusal("typescript", stateOf(guardrail({}, urn)));
    expect(message).not.toMatch(RAW);
    expect(message.length).toBeLessThan(400);
  });

  it("escapes a name's bidi control, and a value's, in a refused arg and in a note", () => {
    const urn = `${HEAD}::guardrails:index:Guardrail::eng\u202egpj.exe`;
    const bad = refusal("python", stateOf(guardrail({ inputs: { name: "x", resetInterval: "\u202ehourly" } }, urn)));
    expect(bad).not.toMatch(RAW);
    expect(bad).toContain("\\u202e");
    const key = refusal(
      "go",
      stateOf(guardrail({ inputs: { contentFilterBuiltins: [{ ["\u2066k".repeat(500)]: 1 }] } })),
    );
    expect(key).not.toMatch(RAW);
    expect(key.length).toBeLessThan(400);
    const { notes } = renderProgram("yaml", stateOf(guardrail({ delete: true }, urn)), schema);
    expect(notes.join("\n")).not.toMatch(RAW);
  });
});
