/**
 * `pulumi package add` from a local checkout, as docs/installation-configuration.md tells a Pulumi
 * YAML user (issue 42): add the built plugin by its path, install it into the plugin cache from
 * the same folder, and `pulumi up` a program against the emulator. The plugin is not on PATH:
 * the engine finds it only where those two commands put it (a PULUMI_HOME of the test's own). YAML is the language whose host
 * built here (scripts/ensure-language-host yaml, v1.32.0) implements GeneratePackage; the Python
 * (sdk v3.68.0) and Go (sdk v3.50.0) hosts built here answer it "not implemented", which the
 * second case pins, so it fails, and says so, on the day newer hosts arrive and Python and Go
 * can be proven the same way. (Run `npm run build` first: the plugin is dist/plugin.)
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { REPO_ROOT } from "../../support/spawn-emulator";
import { useProgram } from "./harness";

const VERSION: string = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).version;
const PLUGIN_DIR = join(REPO_ROOT, "dist/plugin");
const PLUGIN = join(PLUGIN_DIR, "pulumi-resource-guardrails");

const host = (lang: string) =>
  execFileSync(join(REPO_ROOT, "scripts/ensure-pulumi"), ["--language-host", lang], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();

describe("pulumi package add from a local checkout", () => {
  const p = useProgram("package-add");
  let project = "";
  beforeAll(async () => {
    // No plugin on PATH (the harness's PATH may carry src/native/bin), and a plugin cache of its
    // own (the harness's shared one holds the plugin the package's postinstall copied there).
    p.env.PULUMI_HOME = mkdtempSync(join(tmpdir(), "package-add-home-"));
    const path = (p.env.PATH ?? "").split(":").filter((d) => !existsSync(join(d, "pulumi-resource-guardrails")));
    p.env.PATH = [dirname(host("yaml")), ...path].join(":");
    p.env.PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION = "true";
    project = parse(readFileSync(join(p.dir, "Pulumi.yaml"), "utf8")).name;
    await p.pulumi(["stack", "select", "dev"], { check: true }); // the selection lives in PULUMI_HOME
  });

  it("YAML: adds the package from the plugin's path, then runs a program on it", async () => {
    writeFileSync(join(p.dir, "Pulumi.yaml"), stringify({ name: project, runtime: "yaml" }));
    await p.pulumi(["package", "add", PLUGIN], { check: true });
    const added = parse(readFileSync(join(p.dir, "Pulumi.yaml"), "utf8"));
    expect(added.packages).toEqual({ guardrails: `guardrails@${VERSION}` });
    expect(parse(readFileSync(join(p.dir, `sdks/guardrails/guardrails-${VERSION}.yaml`), "utf8"))).toMatchObject({
      name: "guardrails",
      version: VERSION,
    });

    await p.pulumi(["plugin", "install", "resource", "guardrails", VERSION, "--file", PLUGIN_DIR], { check: true });
    const program = {
      ...added,
      resources: {
        eng: {
          type: "guardrails:index:Guardrail",
          properties: { name: "Added", limitUsd: 10, resetInterval: "monthly" },
        },
      },
      outputs: { engId: ["$", "{eng.id}"].join("") }, // a Pulumi YAML reference
    };
    writeFileSync(join(p.dir, "Pulumi.yaml"), stringify(program));
    await p.up();
    const { engId } = await p.outputs();
    const onService = await p.api("GET", `/guardrails/${engId}`);
    expect(onService.body.data).toMatchObject({ name: "Added", limit_usd: 10 });
    await p.destroy();
  });

  it("Python and Go: the language hosts built here cannot generate the SDK (GeneratePackage)", async () => {
    for (const [lang, runtime] of [
      ["python", "python"],
      ["go", "go"],
    ] as const) {
      p.env.PATH = `${dirname(host(lang))}:${p.env.PATH}`;
      writeFileSync(join(p.dir, "Pulumi.yaml"), stringify({ name: project, runtime }));
      const res = await p.pulumi(["package", "add", PLUGIN]);
      expect(res.code, res.output).not.toBe(0);
      expect(res.output).toMatch(/GeneratePackage/);
    }
  });
});
