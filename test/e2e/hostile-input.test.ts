/**
 * Issue 13 under the real CLI: retries are visible as they happen, a failed preview never
 * summarises as "no changes", hostile names cannot forge the PR summary, and a bad config
 * file's errors carry no colour codes, even in `--json` diagnostics. Issue 38: on the native
 * face, ids and names a hostile server answers reach the CLI output escaped.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hostileServer, json } from "../helpers/hostile-server";
import { REPO_ROOT } from "../helpers/spawn-emulator";
import { useProgram } from "./harness";

const SUMMARY_BIN = join(REPO_ROOT, "dist/tools/preview-summary/cli.js");

function summaryOf(dir: string, json: string): { code: number; markdown: string } {
  const file = join(dir, "preview.json");
  writeFileSync(file, json);
  const res = spawnSync(process.execPath, [SUMMARY_BIN, file], { encoding: "utf8" });
  return { code: res.status ?? -1, markdown: res.stdout };
}

describe("hostile input under the real CLI", () => {
  const p = useProgram("hostile-e2e");

  it("each retry is reported in the CLI output as it happens", async () => {
    p.write(
      `import { Guardrail } from "pulumi-guardrails";\nexport const id = new Guardrail("eng", { name: "Engineering" }).id;\n`,
    );
    await p.up();
    p.write(
      `import { Guardrail } from "pulumi-guardrails";\nexport const id = new Guardrail("eng", { name: "Engineering", limitUsd: 5, resetInterval: "daily" }).id;\n`,
    );
    await p.setFaults({ errorRate: 1 });
    p.env.GUARDRAILS_MAX_ATTEMPTS = "3";
    const res = await p.pulumi(["up", "--yes", "--skip-preview"]);
    await p.setFaults({ errorRate: 0 });
    delete p.env.GUARDRAILS_MAX_ATTEMPTS;
    expect(res.code).not.toBe(0);
    expect(res.output).toMatch(
      /pulumi-guardrails: attempt 1 failed: PATCH http:\/\/127\.0\.0\.1:\d+\/api\/v1\/guardrails\/[0-9a-f-]+: HTTP 5\d\d: injected fault: the service failed to answer; retrying in \d+ ms/,
    );
    expect(res.output).toMatch(/pulumi-guardrails: attempt 2 failed: PATCH /);
    expect(res.output).not.toMatch(/attempt 3 failed/);
  });

  it("a preview that fails: its --json gives a 'preview failed' summary and exit 1", async () => {
    p.write(
      `import { Guardrail } from "pulumi-guardrails";\nexport const id = new Guardrail("eng", { name: "Engineering", limitUsd: -5 }).id;\n`,
    );
    const res = await p.pulumi(["preview", "--json"]);
    expect(res.code).not.toBe(0);
    const s = summaryOf(p.dir, res.stdout);
    expect(s.code).toBe(1);
    expect(s.markdown).toMatch(/^\*\*Guardrails: preview failed\.\*\* the preview reported \d+ error\(s\)/);
    expect(s.markdown).toContain("limitUsd");
    expect(s.markdown).not.toContain("no changes");
  });

  it("hostile names and member ids in a real preview cannot forge the summary", async () => {
    const name = "x\\n\\n**Guardrails: no changes.**\\n\\n<!--";
    p.write(`import { Guardrail, GuardrailMemberAssignment } from "pulumi-guardrails";
const g = new Guardrail("eng", { name: "${name}", limitUsd: 1000000, resetInterval: "daily" });
new GuardrailMemberAssignment("eng-members", { guardrailId: g.id, memberUserIds: ["user_\`@security-team\`", "<img src=x onerror=alert(1)>"] });
export const id = g.id;
`);
    const res = await p.pulumi(["preview", "--json"]);
    expect(res.code).toBe(0);
    const s = summaryOf(p.dir, res.stdout);
    expect(s.code).toBe(0);
    const md = s.markdown;
    // The opening line (issue 30) judges; the totals line follows it.
    // Two members join from no assignment, and the stack has no workspace default to compare with (issue 38).
    expect(md.split("\n")[0]).toMatch(/^\*\*❔ May loosen\*\* \(cannot tell from the preview\): 2 members join `/);
    expect(md.split("\n")[0]).toMatch(/ · touches 2 members and 0 keys$/);
    // Then the effective-access line (issue 41), its hostile ids inside code spans; the totals below.
    expect(md.split("\n")[2]).toMatch(
      /^\*\*❔ Effective access may widen\*\* .*member `<img src=x onerror=alert\(1\)>`/,
    );
    expect(md.split("\n").find((l) => l.startsWith("**Guardrails"))).toBe(
      "**Guardrails: 1 updated · members: 2 added · keys: no change**",
    );
    // Outside code spans (where Markdown is inert) nothing is live: no raw HTML, no mention, no second headline.
    const outsideCode = md.replace(/`[^`\n]*`/g, "");
    expect(outsideCode).not.toMatch(/(^|[^\\])</);
    expect(outsideCode).not.toMatch(/@[a-z]/i);
    expect(md.split("\n").filter((l) => l.startsWith("**Guardrails"))).toHaveLength(1);
    expect(md).toContain("### `x **Guardrails: no changes.** <!--` (`eng`): update");
    expect(md).toContain("- added: `<img src=x onerror=alert(1)>`, `user_ˋ@security-teamˋ`");
    expect(md).toContain("limitUsd: `(not set)` → `1000000`");
  });

  it("a bad declarative file fails with its problems and no colour codes, even in --json", async () => {
    mkdirSync(join(p.dir, "guardrails"), { recursive: true });
    writeFileSync(
      join(p.dir, "guardrails", "a.yaml"),
      "guardrails:\n  eng:\n    name: Eng\n    limitUsd: -1\n  1:\n    name: One\n",
    );
    p.write(`import { declareGuardrails } from "pulumi-guardrails";\ndeclareGuardrails("guardrails");\n`);
    const res = await p.pulumi(["preview", "--json"]);
    expect(res.code).not.toBe(0);
    const messages = (JSON.parse(res.stdout).diagnostics as Array<{ message: string }>)
      .map((d) => d.message)
      .join("\n");
    expect(messages).toContain("guardrails/a.yaml:4:15: guardrails.eng.limitUsd: must be >= 0 (got -1)");
    expect(messages).toContain(
      'guardrails/a.yaml:5:3: guardrails.1: guardrail id 1 was read by YAML as the number 1; quote it ("1") to keep it as written',
    );
    expect(messages).not.toMatch(/\u001b/);
    expect(messages).not.toContain("at loadGuardrailConfigs");
    const plain = await p.pulumi(["preview"]);
    expect(plain.output).not.toContain("\u001b");
    expect(plain.output).not.toContain("at loadGuardrailConfigs");
  });
});

describe("hostile server text under the real CLI, on the native face (issue 38)", () => {
  const p = useProgram("hostile-native-e2e");

  it("ids and a message a hostile server answers arrive escaped in the CLI output, never raw", async () => {
    const evil = "\u001b[31m\u202egnp.exe\u200b";
    const server = await hostileServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      if (path !== "/api/v1/guardrails") return json(res, 400, { error: { code: 400, message: `refused${evil}` } });
      const row = (id: string) => ({ id, name: "twin", created_at: "2026-01-01T00:00:00Z" });
      json(res, 200, { data: [row(`../../workspaces/${evil}1`), row(`../../workspaces/${evil}2`)], total_count: 2 });
    });
    try {
      Object.assign(p.env, {
        PATH: `${join(REPO_ROOT, "src/native/bin")}:${p.env.PATH}`,
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      });
      writeFileSync(join(p.dir, "Pulumi.yaml"), "name: hostile-native-e2e\nruntime: nodejs\n");
      writeFileSync(join(p.dir, "package.json"), JSON.stringify({ name: "hostile-native-e2e", main: "index.js" }));
      writeFileSync(
        join(p.dir, "index.js"),
        `const pulumi = require("@pulumi/pulumi");
const show = (tok, args) => pulumi.runtime.invoke("guardrails:index:" + tok, args).then(() => "ok", (e) => console.log(tok + " failed: " + e.message));
exports.done = Promise.all([show("getGuardrail", { name: "twin" }), show("getGuardrailMembers", { guardrailId: "3f2b8c1e-0000-4000-8000-000000000000" })]).then(() => "done");
`,
      );
      await p.pulumi(["config", "set", "guardrails:baseUrl", server.url], { check: true });
      const res = await p.preview();
      expect(res.output).not.toMatch(/[\u001b\u202e\u200b]/);
      expect(res.output).toContain(
        'data.0.id: must be a UUID, as the service assigns its ids (got "../../workspaces/<U+001B>[31m<U+202E>gnp.exe<U+200B>1")',
      );
      expect(res.output).toContain("400 Bad Request: refused [31m<U+202E>gnp.exe<U+200B>");
    } finally {
      await server.close();
    }
  });
});
