/**
 * `guardrails-export --from-state <file> --language typescript|go|yaml` (issue 42): the program
 * of an imported native stack, in each language, from one walk of the state (program-walk.ts).
 * Checked here, over the pure renderers: the text of a typical import (inline snapshots), and a
 * table of hostile states per language. Each hostile program must parse in its language and
 * hold exactly the state's strings (read back by that language's parser: TypeScript's, Python's
 * reading of Go's escapes, the `yaml` package and Pulumi YAML's `$$`), or be refused naming the
 * resource. That each program type-checks against its SDK and previews with no change is
 * test/e2e/native-generate-code.test.ts's.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REPO_ROOT } from "../../support/spawn-emulator";
import {
  type PackageSchema,
  renderGoProgram,
  renderTypeScriptProgram,
  renderYamlProgram,
  StateMigrationError,
} from "../../src/export";

const G = "3f2b8c1e-0000-4000-8000-000000000001";
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const schema = JSON.parse(readFileSync(join(REPO_ROOT, "src/native/schema.json"), "utf8")) as PackageSchema;
const urn = (type: string, name: string) => `urn:pulumi:dev::adopt::${type}::${name}`;
const res = (type: string, name: string, id: string, inputs: object, protect = true) => ({
  urn: urn(`guardrails:index:${type}`, name),
  type: `guardrails:index:${type}`,
  custom: true,
  id,
  protect,
  inputs,
});
const stateOf = (...resources: object[]) => ({ version: 3, deployment: { resources } });

/** A guardrail with nested and enum args, one secret, and its member set, as an import records them. */
const imported = stateOf(
  res("GuardrailMemberAssignment", "eng-members", `${G}/members`, {
    guardrailId: G,
    memberUserIds: ["user_alice"],
    members: { user_alice: true },
  }),
  res("Guardrail", "eng", G, {
    name: "Engineering",
    limitUsd: { [SIG]: SECRET, plaintext: "500" },
    resetInterval: "monthly",
    contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages" }],
    allowedDataRegions: ["europe"],
  }),
);

describe("the program of an imported stack, in each language", () => {
  it("TypeScript: the native SDK, a secret pulumi.secret, protect, the set naming its guardrail", () => {
    expect(renderTypeScriptProgram(imported, schema).text).toMatchInlineSnapshot(`
      "import * as pulumi from "@pulumi/pulumi";
      import * as guardrails from "pulumi-guardrails/native";

      const eng = new guardrails.Guardrail("eng", {
          name: "Engineering",
          limitUsd: pulumi.secret(500),
          resetInterval: "monthly",
          contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages" }],
          allowedDataRegions: ["europe"],
      }, { protect: true });
      new guardrails.GuardrailMemberAssignment("eng-members", {
          guardrailId: eng.id,
          memberUserIds: ["user_alice"],
      }, { protect: true });
      "
    `);
  });

  it("Go: every value typed as the Go SDK names it, errors returned, no unused variable", () => {
    expect(renderGoProgram(imported, schema).text).toMatchInlineSnapshot(`
      "package main

      import (
      	"github.com/pulumi-guardrails/pulumi-guardrails/sdk/go/guardrails"
      	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
      )

      func main() {
      	pulumi.Run(func(ctx *pulumi.Context) error {
      		var err error
      		eng, err := guardrails.NewGuardrail(ctx, "eng", &guardrails.GuardrailArgs{
      			Name: pulumi.String("Engineering"),
      			LimitUsd: pulumi.ToSecret(pulumi.Float64(500)).(pulumi.Float64Output),
      			ResetInterval: guardrails.ResetInterval("monthly"),
      			ContentFilterBuiltins: guardrails.BuiltinFilterArray{guardrails.BuiltinFilterArgs{Slug: guardrails.BuiltinFilterSlug("regex-prompt-injection"), Action: guardrails.FilterAction("flag"), ScanScope: guardrails.ScanScope("all_messages")}},
      			AllowedDataRegions: guardrails.DataRegionArray{guardrails.DataRegion("europe")},
      		}, pulumi.Protect(true))
      		if err != nil {
      			return err
      		}
      		_, err = guardrails.NewGuardrailMemberAssignment(ctx, "eng-members", &guardrails.GuardrailMemberAssignmentArgs{
      			GuardrailId: eng.ID(),
      			MemberUserIds: pulumi.StringArray{pulumi.String("user_alice")},
      		}, pulumi.Protect(true))
      		if err != nil {
      			return err
      		}
      		return nil
      	})
      }
      "
    `);
  });

  it("YAML: the resources section, fn::secret, options.protect, a reference to the guardrail's id", () => {
    expect(renderYamlProgram(imported, schema).text).toMatchInlineSnapshot(`
      "resources:
        "eng":
          type: guardrails:index:Guardrail
          properties:
            name: "Engineering"
            limitUsd: {"fn::secret": 500}
            resetInterval: "monthly"
            contentFilterBuiltins: [{slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages"}]
            allowedDataRegions: ["europe"]
          options:
            protect: true
        "eng-members":
          type: guardrails:index:GuardrailMemberAssignment
          properties:
            guardrailId: "\${eng.id}"
            memberUserIds: ["user_alice"]
          options:
            protect: true
      "
    `);
  });
});

/** `${`, written so no linter takes it for a mistaken template. */
const OPEN = ["$", "{"].join("");

/** Hostile text, each a value a state may hold: every one must come back as it is. */
const HOSTILE = [
  'quote " and \\ backslash',
  "new\nline\r\ttab and NUL \u0000 and DEL \u007f",
  "line separators \u2028 \u2029 and BOM \ufeff and bidi \u202e",
  "comment end */ and /* and // and #",
  `interpolation ${OPEN}eng.id} and $${OPEN}x} and $ and $$`,
  `backtick \` and ${OPEN}\`x\`}`,
  "non-BMP \u{1F600} \u{10FFFF}",
  "fn::secret: {a: [b]}",
];
/** Names that are keywords somewhere, or that become the same identifier. */
const NAMES = ["for", "func", "class", "None", "err", "a-b", "a.b", "a_b", "9lives", 'q"q', `x${OPEN}y}`, "é"];

/** A state of one guardrail per name, each holding every hostile text, and a set naming the first. */
const hostile = stateOf(
  ...NAMES.map((n, i) =>
    res("Guardrail", n, `g${i}`, { name: HOSTILE.join("|"), allowedModels: HOSTILE, description: n }),
  ),
  res("GuardrailKeyAssignment", "keys", "g0/keys", { guardrailId: "g0", keyHashes: HOSTILE }, false),
);

/** Every string a program holds, as its language reads it back. */
const READ_BACK = {
  typescript: (text: string) => {
    const file = ts.createSourceFile("p.ts", text, ts.ScriptTarget.ES2022, true);
    const diags = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
    expect(diags.map((d) => d.messageText)).toEqual([]);
    const out: string[] = [];
    const visit = (n: ts.Node) => {
      if (ts.isStringLiteral(n)) out.push(n.text);
      ts.forEachChild(n, visit);
    };
    visit(file);
    return out;
  },
  go: (text: string) => {
    execFileSync("/usr/local/go/bin/gofmt", ["-e"], { input: text, encoding: "utf8" });
    // Go's escapes here (\" \\ \n \r \t \uXXXX \UXXXXXXXX) are Python's: Python reads them.
    const literals = text.match(/"(?:[^"\\\n]|\\.)*"/g) ?? [];
    const py = "import ast,json,sys; print(json.dumps([ast.literal_eval(s) for s in json.load(sys.stdin)]))";
    return JSON.parse(execFileSync("python3", ["-c", py], { input: JSON.stringify(literals), encoding: "utf8" }));
  },
  yaml: (text: string) => {
    const out: string[] = [];
    const visit = (v: unknown, key: boolean) => {
      // Pulumi YAML reads `$$` in a value as `$` (a resource's key is not read so).
      if (typeof v === "string") out.push(key ? v : v.replaceAll("$$", () => "$"));
      else if (Array.isArray(v)) for (const e of v) visit(e, false);
      else if (v && typeof v === "object")
        for (const [k, e] of Object.entries(v)) {
          out.push(k);
          visit(e, false);
        }
    };
    visit(parse(text).resources, true);
    for (const [k, r] of Object.entries(parse(text).resources as Record<string, object>))
      out.push(k, ...Object.keys(r));
    return out;
  },
};

describe.each([
  ["typescript", renderTypeScriptProgram],
  ["go", renderGoProgram],
  ["yaml", renderYamlProgram],
] as const)("%s: the program of a hostile state", (language, render) => {
  it("parses, and holds every hostile text and name exactly", () => {
    const { text } = render(hostile, schema);
    const strings = READ_BACK[language](text);
    for (const h of [...HOSTILE, HOSTILE.join("|"), ...NAMES]) expect(strings, JSON.stringify(h)).toContain(h);
    // No hostile text escaped its string: it never appears raw outside one.
    expect(text).not.toContain("*/ and /*\n");
  });

  it("gives each name its own variable, none a keyword", () => {
    const { text } = render(hostile, schema);
    if (language === "yaml") return;
    const declared = [...text.matchAll(/(?:const |\t\t)(\w+)(?: =|, err :=)/g)].map((m) => m[1]);
    expect(new Set(declared).size).toBe(declared.length);
  });

  it("refuses what it cannot write, naming the resource and arg", () => {
    const one = (inputs: object) => stateOf(res("Guardrail", "bad", G, inputs));
    const cases: Array<[object, string]> = [
      [{ name: "\ud800" }, "bad: name holds a string that is not Unicode text (a lone surrogate)"],
      [{ name: "x", limitUsd: "500" }, "bad: limitUsd holds a string where the schema takes a number"],
      [{ name: "x", resetInterval: "hourly" }, 'bad: resetInterval holds "hourly", not one of ResetInterval\'s values'],
      [{ name: "x", allowedModels: ["a", null] }, "bad: allowedModels holds null where the schema takes a string"],
      [{ name: { [SIG]: SECRET, ciphertext: "v1:x" } }, "bad: name is secret and this export does not show it"],
    ];
    for (const [inputs, message] of cases) {
      expect(() => render(one(inputs), schema)).toThrow(StateMigrationError);
      expect(() => render(one(inputs), schema)).toThrow(message);
    }
  });
});

describe("YAML: what only YAML refuses", () => {
  it("two resources of one name (a guardrail and a set): a program keys them by name", () => {
    const state = stateOf(
      res("Guardrail", "eng", G, { name: "x" }),
      res("GuardrailKeyAssignment", "eng", `${G}/keys`, { guardrailId: G, keyHashes: [] }),
    );
    expect(() => renderYamlProgram(state, schema)).toThrow(
      "eng: two resources of this stack have this name, and a Pulumi YAML program keys its resources by name",
    );
  });
});
