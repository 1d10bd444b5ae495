/**
 * The declarative loader against files a pull request can send: symlinks out of the folder,
 * special files, keys YAML coerces, huge lists, alias bombs. Each attack of issue 13 is a case.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DeclarativeConfigError, loadGuardrailConfigs } from "../../src/declarative/load";
import { problemsIn } from "../helpers/declarative";

let dir: string;
let outside: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "gr-hostile-"));
  outside = mkdtempSync(join(tmpdir(), "gr-outside-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const OK = "guardrails:\n  eng:\n    name: Eng\n";

/** Writes `files` into the folder, then answers the loader's problems. */
const problems = (files: Record<string, string> = {}) => problemsIn(dir, files);

/** A case: the files written into the folder, and every problem the loader must report, in order. */
interface Case {
  title: string;
  files: Record<string, string>;
  problems: unknown[];
}
/** One test a case, each asserting the exact list of problems. */
const reports = (cases: Case[]) =>
  it.each(cases.map((c) => [c.title, c] as const))("%s", (_, c) => expect(problems(c.files)).toEqual(c.problems));

describe("loader: only regular files inside the folder are read", () => {
  it("a symlink to /proc/self/environ is refused by name; the environment is never echoed", () => {
    const secret = `gr-env-secret-${Date.now()}`;
    process.env.GUARDRAILS_HOSTILE_TEST = secret;
    try {
      writeFileSync(join(dir, "a.yaml"), OK);
      symlinkSync("/proc/self/environ", join(dir, "env.yaml"));
      const p = problems();
      expect(p).toEqual([
        "env.yaml: a symlink that leaves its folder; not read (config files must be regular files inside " +
          dir.split("/").pop() +
          "/)",
      ]);
      expect(p.join("\n")).not.toContain(secret.slice(0, 8));
    } finally {
      delete process.env.GUARDRAILS_HOSTILE_TEST;
    }
  });

  it("a symlink to a one-line key file outside, and a relative ../ link, show no content", () => {
    writeFileSync(join(outside, "key"), "sk-or-v1-0123456789abcdef\n");
    symlinkSync(join(outside, "key"), join(dir, "npmrc.yaml"));
    symlinkSync(`../${outside.split("/").pop()}/key`, join(dir, "rel.yml"));
    const p = problems();
    expect(p).toHaveLength(2);
    expect(p.every((x) => x.includes("a symlink that leaves its folder; not read"))).toBe(true);
    expect(p.join("\n")).not.toContain("sk-or");
  });

  it("a symlink that stays inside the folder is followed; a dangling one is named", () => {
    mkdirSync(join(dir, "shared"));
    writeFileSync(join(dir, "shared", "eng.txt"), OK);
    symlinkSync("shared/eng.txt", join(dir, "eng.yaml"));
    expect(loadGuardrailConfigs(dir, { cwd: dir }).map((g) => g.id)).toEqual(["eng"]);
    symlinkSync("nowhere.yaml", join(dir, "z.yaml"));
    expect(problems()).toEqual(["z.yaml: a symlink to nothing; not read"]);
  });

  it("a FIFO named x.yaml is refused without waiting for a writer", () => {
    writeFileSync(join(dir, "a.yaml"), OK);
    execFileSync("mkfifo", [join(dir, "x.yaml")]);
    expect(problems()).toEqual(["x.yaml: not a regular file (a FIFO); not read"]);
  }, 20_000);

  it("a folder named x.yaml is a problem, not a raw EISDIR", () => {
    writeFileSync(join(dir, "a.yaml"), OK);
    mkdirSync(join(dir, "x.yaml"));
    expect(problems()).toEqual(["x.yaml: not a regular file (a folder); not read"]);
  });
});

describe("loader: ids YAML coerced are rejected as written", () => {
  reports([
    {
      title: '`1:` beside `"1":` no longer makes one guardrail vanish',
      files: { "a.yaml": 'guardrails:\n  1:\n    name: One\n  "1":\n    name: Also one\n' },
      problems: [
        'a.yaml:2:3: guardrails.1: guardrail id 1 was read by YAML as the number 1; quote it ("1") to keep it as written',
      ],
    },
    {
      title: "`007:` shows 007, not 7; member ids and booleans too",
      files: {
        "a.yaml":
          "guardrails:\n  007:\n    name: Bond\n  eng:\n    name: Eng\n    members:\n      ids: [user_a, 0042, true]\n",
      },
      problems: [
        'a.yaml:2:3: guardrails.7: guardrail id 007 was read by YAML as the number 7; quote it ("007") to keep it as written',
        'a.yaml:7:21: guardrails.eng.members.ids[1]: id 0042 was read by YAML as the number 42; quote it ("0042") to keep it as written',
        'a.yaml:7:27: guardrails.eng.members.ids[2]: id true was read by YAML as the boolean true; quote it ("true") to keep it as written',
      ],
    },
    {
      title: "a duplicate key in a JSON file is reported, not silently dropped",
      files: { "a.json": '{"guardrails": {"eng": {"name": "A"}, "eng": {"name": "B"}}}' },
      problems: ['a.json:1:39: duplicate key "eng" (also at a.json:1:17)'],
    },
    {
      title:
        "keys are compared after unescaping: \\u0065ng is eng, limit\\u0055sd is limitUsd, guardr\\u0061ils is guardrails (issue 24, finding 12)",
      files: {
        "a.json": '{"guardrails": {"eng": {"name": "A"}, "\\u0065ng": {"name": "B"}}}',
        "b.json":
          '{"guardrails": {"ops": {"name": "Ops", "limitUsd": 5, "resetInterval": "daily", "limit\\u0055sd": 500}},\n "guardr\\u0061ils": {}}',
        "c.yaml": 'guardrails:\n  sec:\n    name: Sec\n  "\\x73ec":\n    name: Also sec\n',
      },
      problems: [
        'a.json:1:39: duplicate key "eng" (also at a.json:1:17)',
        'b.json:1:81: duplicate key "limitUsd" (also at b.json:1:40)',
        'b.json:2:2: duplicate key "guardrails" (also at b.json:1:2)',
        'c.yaml:4:3: duplicate key "sec" (also at c.yaml:2:3)',
      ],
    },
  ]);
});

describe("loader: huge input", () => {
  it("200,000 member ids in YAML load (the old spread into push overflowed the stack past ~120,000)", () => {
    const ids = Array.from({ length: 200_000 }, (_, i) => `user_${i}`);
    writeFileSync(
      join(dir, "a.yaml"),
      `guardrails:\n  eng:\n    name: Eng\n    members:\n      ids: [${ids.join(", ")}]\n`,
    );
    const [g] = loadGuardrailConfigs(dir, { cwd: dir });
    expect(g?.settings.members?.ids).toHaveLength(200_000);
  }, 120_000);

  it("a million member ids in JSON load", () => {
    const ids = Array.from({ length: 1_000_000 }, (_, i) => `user_${i}`);
    writeFileSync(join(dir, "a.json"), JSON.stringify({ guardrails: { eng: { name: "Eng", members: { ids } } } }));
    expect(loadGuardrailConfigs(dir, { cwd: dir })[0]?.settings.members?.ids).toHaveLength(1_000_000);
  }, 120_000);

  it("a JSON file with a conflict still gets positions (the YAML parser runs only then)", () => {
    const files = {
      "a.json": JSON.stringify(
        { guardrails: { eng: { name: "Eng", members: { ids: ["user_a", "user_b"] } } } },
        null,
        2,
      ),
      "b.yaml": "guardrails:\n  ops:\n    name: Ops\n    members:\n      ids: [user_b]\n",
    };
    expect(problems(files)).toEqual([
      expect.stringMatching(
        /^b\.yaml:5:13: member "user_b" is assigned to two guardrails of the default workspace: "eng" \(a\.json:8:11\) and "ops"/,
      ),
    ]);
  });

  it("an alias bomb is a problem naming the file, not a raw ReferenceError", () => {
    const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
    for (let i = 1; i < 9; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(", ")}]`,
      );
    writeFileSync(
      join(dir, "bomb.yaml"),
      `${levels.join("\n")}\nguardrails:\n  eng:\n    name: Eng\n    description: *i\n`,
    );
    const p = problems();
    expect(p).toHaveLength(1);
    expect(p[0]).toMatch(/^bomb\.yaml:1:1: cannot be read as data: .*alias/i);
  });
});

describe("loader: every problem in one run, printable", () => {
  reports([
    {
      title: "per-file errors and cross-file conflicts come together",
      files: {
        "a.yaml":
          "guardrails:\n  eng:\n    name: Eng\n    limitUsd: -1\n    resetInterval: daily\n    members:\n      ids: [user_bob]\n",
        "b.yaml":
          "guardrails:\n  ops:\n    name: Ops\n    colour: blue\n    members:\n      ids: [user_bob]\n  eng:\n    name: Eng again\n",
      },
      problems: [
        "a.yaml:4:15: guardrails.eng.limitUsd: must be >= 0 (got -1)",
        "b.yaml:4:5: guardrails.ops.colour: unknown field",
        'b.yaml:6:13: member "user_bob" is assigned to two guardrails of the default workspace: "eng" (a.yaml:7:13) and "ops"; a member holds one guardrail per workspace, so it would move back and forth between them on every up',
        'b.yaml:7:3: guardrail id "eng" is declared twice (also at a.yaml:2:3); ids must be unique across files',
      ],
    },
    {
      title:
        "workspace ids compare in any case: one member under two guardrails of one workspace written twice (issue 24, finding 13)",
      files: {
        "a.yaml":
          "guardrails:\n  eng:\n    name: Eng\n    workspaceId: 0000000a-0000-4000-8000-00000000000b\n    members:\n      ids: [user_bob]\n",
        "b.yaml":
          "guardrails:\n  ops:\n    name: Ops\n    workspaceId: 0000000A-0000-4000-8000-00000000000B\n    members:\n      ids: [user_bob]\n",
      },
      problems: [
        'b.yaml:6:13: member "user_bob" is assigned to two guardrails of workspace 0000000A-0000-4000-8000-00000000000B: "eng" (a.yaml:6:13) and "ops"; a member holds one guardrail per workspace, so it would move back and forth between them on every up',
      ],
    },
    {
      title: "two files adopting one guardrail (in any case) are refused, naming both (issue 24, finding 18)",
      files: {
        "a.yaml": "guardrails:\n  sales:\n    name: Sales\n    adoptId: 22222222-0000-4000-8000-00000000000a\n",
        "b.yaml":
          "guardrails:\n  sales-copy:\n    name: Sales copy\n    adoptId: 22222222-0000-4000-8000-00000000000A\n  other:\n    name: Other\n    adoptId: 33333333-0000-4000-8000-000000000003\n",
      },
      problems: [
        'b.yaml:4:14: guardrails "sales" (a.yaml:4:14) and "sales-copy" both adopt guardrail 22222222-0000-4000-8000-00000000000A; a guardrail is managed by one resource, so each up would set it to the other\'s settings. Keep one of them',
      ],
    },
    {
      title: "a file that is not a config is described, not quoted",
      files: { "a.yaml": "GUARDRAILS_API_KEY=sk-or-v1-secret-value\n" },
      problems: ["a.yaml:1:1: (file): Invalid input: expected object, received string (got a string of 40 characters)"],
    },
  ]);

  it("control characters from a file are escaped, and the error prints as a Pulumi run error (message only, no colour)", () => {
    writeFileSync(
      join(dir, "a.yaml"),
      'guardrails:\n  eng:\n    name: Eng\n    members:\n      ids: ["\\e[31mred\\nforged"]\n  ops:\n    name: Ops\n    members:\n      ids: ["\\e[31mred\\nforged"]\n',
    );
    let err: DeclarativeConfigError | undefined;
    try {
      loadGuardrailConfigs(dir, { cwd: dir });
    } catch (e) {
      err = e as DeclarativeConfigError;
    }
    expect(err?.message).not.toMatch(/\u001b/);
    expect(err?.problems[0]).toContain('member "\\u001b[31mred\\u000aforged"');
    expect((err as unknown as { __pulumiRunError: boolean }).__pulumiRunError).toBe(true);
  });
});
