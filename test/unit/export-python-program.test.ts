/**
 * `guardrails-export --from-state <file> --language python` (issue 42): after `pulumi import`
 * into a Python project, whose language host may answer `GenerateProgram not implemented`, the
 * program to paste comes from the stack's state. The state here has the shape `pulumi stack
 * export` prints after an import (inputs as `Read` records them, a set's id map beside its list,
 * `protect: true`). Checked: the text (inline snapshot), that Python parses it (`python3 -m ast`),
 * and that every keyword argument is one the generated Python SDK's class takes. And the bin, as
 * a user runs it (build first: it runs dist/).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderPythonProgram, StateMigrationError } from "../../src/export";
import { EXPORT_BIN, exportBin } from "../helpers/export-bin";
import { REPO_ROOT } from "../../support/spawn-emulator";

const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const G = "3f2b8c1e-0000-4000-8000-000000000001";
const urn = (type: string, name: string) => `urn:pulumi:dev::adopt::${type}::${name}`;

const schema = JSON.parse(readFileSync(join(REPO_ROOT, "src/native/schema.json"), "utf8"));

/** A native stack after `pulumi import` of a guardrail and its two sets. */
function importedState(limit: unknown = 500) {
  const resources = [
    { urn: urn("pulumi:pulumi:Stack", "adopt-dev"), type: "pulumi:pulumi:Stack", custom: false },
    {
      urn: urn("pulumi:providers:guardrails", "default_0_6_0"),
      type: "pulumi:providers:guardrails",
      custom: true,
      id: "p",
    },
    {
      urn: urn("guardrails:index:GuardrailMemberAssignment", "eng-members"),
      type: "guardrails:index:GuardrailMemberAssignment",
      custom: true,
      id: `${G}/members`,
      protect: true,
      inputs: {
        guardrailId: G,
        memberUserIds: ["user_alice", "user_bob"],
        members: { user_alice: true, user_bob: true },
      },
    },
    {
      urn: urn("guardrails:index:Guardrail", "eng.prod"),
      type: "guardrails:index:Guardrail",
      custom: true,
      id: G,
      protect: true,
      inputs: {
        name: 'Engineering "core"',
        workspaceId: "ws-default",
        allowedModels: ["vendor-a/model-x"],
        limitUsd: limit,
        resetInterval: "monthly",
        enforceZdrVendorA: true,
        contentFilterBuiltins: [{ slug: "regex-prompt-injection", action: "flag", scanScope: "all_messages" }],
        allowedDataRegions: ["europe"],
      },
    },
    {
      urn: urn("guardrails:index:GuardrailKeyAssignment", "for"),
      type: "guardrails:index:GuardrailKeyAssignment",
      custom: true,
      id: "other/keys",
      protect: false,
      inputs: { guardrailId: "other", keyHashes: ["a1b2c3d4e5f60718"], keys: { a1b2c3d4e5f60718: true } },
    },
  ];
  return { version: 3, deployment: { resources } };
}

/** The keyword arguments a class of the generated Python SDK takes (its `__init__`). */
function sdkKwargs(module: string): Set<string> {
  const src = readFileSync(join(REPO_ROOT, "sdk/python/pulumi_guardrails", `${module}.py`), "utf8");
  const init = src.slice(
    src.indexOf("    def __init__(__self__,\n                 resource_name: str,\n                 opts"),
  );
  return new Set([...init.slice(0, init.indexOf("):")).matchAll(/^\s+(\w+): /gm)].map((m) => m[1]!));
}

describe("the Python program of an imported stack", () => {
  it("writes each resource with the recorded args, protect as in the state, sets after their guardrail", () => {
    const { text, notes } = renderPythonProgram(importedState(), schema);
    expect(notes).toEqual([]);
    expect(text).toMatchInlineSnapshot(`
      "import pulumi
      import pulumi_guardrails as guardrails

      eng_prod = guardrails.Guardrail(
          "eng.prod",
          name="Engineering \\"core\\"",
          workspace_id="ws-default",
          allowed_models=["vendor-a/model-x"],
          limit_usd=500,
          reset_interval="monthly",
          enforce_zdr_vendor_a=True,
          content_filter_builtins=[{"slug": "regex-prompt-injection", "action": "flag", "scan_scope": "all_messages"}],
          allowed_data_regions=["europe"],
          opts=pulumi.ResourceOptions(protect=True),
      )
      eng_members = guardrails.GuardrailMemberAssignment(
          "eng-members",
          guardrail_id=eng_prod.id,
          member_user_ids=["user_alice", "user_bob"],
          opts=pulumi.ResourceOptions(protect=True),
      )
      for_ = guardrails.GuardrailKeyAssignment(
          "for",
          guardrail_id="other",
          key_hashes=["a1b2c3d4e5f60718"],
      )
      "
    `);
  });

  it("is Python, and names only arguments the generated SDK's classes take", () => {
    const { text } = renderPythonProgram(importedState(), schema);
    const file = join(mkdtempSync(join(tmpdir(), "py-program-")), "__main__.py");
    writeFileSync(file, text);
    execFileSync("python3", ["-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())", file]);
    const takes: Record<string, Set<string>> = {
      Guardrail: sdkKwargs("guardrail"),
      GuardrailMemberAssignment: sdkKwargs("guardrail_member_assignment"),
      GuardrailKeyAssignment: sdkKwargs("guardrail_key_assignment"),
    };
    let cls = "";
    for (const line of text.split("\n")) {
      cls = line.match(/= guardrails\.(\w+)\($/)?.[1] ?? cls;
      const kw = line.match(/^ {4}(\w+)=/)?.[1];
      if (kw && kw !== "opts") expect(takes[cls], `${cls}(${kw}=...)`).toContain(kw);
    }
    expect(takes.Guardrail!.size).toBeGreaterThan(10);
  });

  it("writes a secret arg as a secret from --show-secrets, and refuses one it cannot read", () => {
    const shown = { [SIG]: SECRET, plaintext: "500" };
    expect(renderPythonProgram(importedState(shown), schema).text).toContain("limit_usd=pulumi.Output.secret(500),");
    const hidden = { [SIG]: SECRET, ciphertext: "v1:abc" };
    expect(() => renderPythonProgram(importedState(hidden), schema)).toThrow(StateMigrationError);
    expect(() => renderPythonProgram(importedState(hidden), schema)).toThrow(
      "eng.prod: limitUsd is secret and this export does not show it; export with `pulumi stack export --show-secrets`",
    );
  });
});

describe("the Python program of a hostile state (issue 42's attack pass)", () => {
  const one = (name: string, inputs: Record<string, unknown>) => ({
    deployment: {
      resources: [
        {
          urn: urn("guardrails:index:Guardrail", name),
          type: "guardrails:index:Guardrail",
          custom: true,
          id: G,
          inputs,
        },
      ],
    },
  });
  const parses = (text: string) => {
    const file = join(mkdtempSync(join(tmpdir(), "py-hostile-")), "__main__.py");
    writeFileSync(file, text);
    execFileSync("python3", ["-c", "import ast,sys; ast.parse(open(sys.argv[1]).read())", file]);
  };

  it("keeps a name holding `::` whole, as Pulumi reads it (a shorter name is another resource)", () => {
    const { text } = renderPythonProgram(one("team::eng", { name: "x" }), schema);
    expect(text).toContain('team__eng = guardrails.Guardrail(\n    "team::eng",\n');
  });

  it("refuses a number JSON cannot hold rather than writing None (which drops the arg)", () => {
    const state = one("n", { name: "x", limitUsd: JSON.parse("1e999") });
    expect(() => renderPythonProgram(state, schema)).toThrow("n: limitUsd holds a number out of range");
  });

  it("never quotes a secret's plaintext in its refusal", () => {
    const state = one("n", { name: "x", limitUsd: { [SIG]: SECRET, plaintext: "hunter2-not-json" } });
    let message = "";
    try {
      renderPythonProgram(state, schema);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe("n: limitUsd holds a secret whose plaintext is not JSON, as `pulumi stack export` writes it");
    expect(message).not.toContain("hunter2");
  });

  it("refuses a resource of ours it cannot read rather than leaving it out (pulumi up would delete it)", () => {
    const state = one('a"""\n__import__("os")', { name: "x" });
    expect(() => renderPythonProgram(state, schema)).toThrow(/has no URN this command reads/);
  });

  it("writes quotes, newlines, NUL, line separators and code as inert string literals", () => {
    const evil = '"""; __import__("os").system("echo pwned") #\n\u2028\u0000\u0085\\N{BULLET}\'\'\'';
    const { text } = renderPythonProgram(one("None", { name: evil, description: evil }), schema);
    parses(text);
    // The one call is the resource's: every hostile text stayed inside a string.
    const calls = execFileSync(
      "python3",
      [
        "-c",
        "import ast,sys; print([ast.unparse(n.func) for n in ast.walk(ast.parse(sys.stdin.read())) if isinstance(n, ast.Call)])",
      ],
      { input: text, encoding: "utf8" },
    );
    expect(calls.trim()).toBe("['guardrails.Guardrail']");
    expect(text).toContain("None_ = guardrails.Guardrail(");
    expect(text.split("\n").filter((l) => l.includes("__import__"))).toHaveLength(2);
  });

  it("refuses a key the schema's type does not have rather than writing it", () => {
    const injectedKey = 'a": __import__("os"), "b';
    const state = one("n", { name: "x", contentFilterBuiltins: [{ [injectedKey]: "x" }] });
    expect(() => renderPythonProgram(state, schema)).toThrow(
      `n: contentFilterBuiltins holds a key ${JSON.stringify(injectedKey)} that BuiltinFilter does not have`,
    );
  });
});

describe("guardrails-export --from-state <file> --language python", () => {
  const run = exportBin({ url: "http://127.0.0.1:9" }, EXPORT_BIN);

  it("prints the program, and refuses another language or a missing --from-state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "py-program-bin-"));
    writeFileSync(join(dir, "state.json"), JSON.stringify(importedState()));
    const ok = await run(["--from-state", "state.json", "--language", "python"], dir);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe(renderPythonProgram(importedState(), schema).text);

    const go = await run(["--from-state", "state.json", "--language", "cobol"], dir);
    expect(go.code).toBe(2);
    expect(go.stderr).toContain('--language takes typescript, ts, python, go, yaml (got "cobol")');
    const none = await run(["--language", "python", "--all-workspaces"], dir);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("give --from-state <file>, and drop --all-workspaces");
  });
});
