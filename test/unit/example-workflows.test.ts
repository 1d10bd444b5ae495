/**
 * The example GitHub workflows, read as data: where the key can appear, what each job checks
 * out, and that every package command they call exists with the flags they pass. (They cannot
 * run here; the commands they call are run by test/e2e/git-workflow.test.ts.)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { DRIFT_MARKER } from "../../tools/ci/drift-issue";

const dir = join(__dirname, "../../examples/declarative/.github/workflows");
type Step = {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
};
type Job = {
  if?: string;
  environment?: string;
  permissions?: Record<string, string>;
  concurrency?: { group: string; "cancel-in-progress": boolean };
  env?: unknown;
  steps: Step[];
};
const load = (f: string) =>
  parse(readFileSync(join(dir, f), "utf8")) as {
    on: Record<string, unknown>;
    env?: Record<string, string>;
    permissions?: unknown;
    jobs: Record<string, Job>;
  };
const secretSteps = (job: Job) => job.steps.filter((s) => JSON.stringify(s).includes("secrets."));
const runs = (wf: ReturnType<typeof load>) =>
  Object.values(wf.jobs)
    .flatMap((j) => j.steps.map((s) => s.run ?? ""))
    .join("\n");

describe.each(["guardrails.yml", "drift.yml"])("%s", (file) => {
  const wf = load(file);
  it("holds no secret at workflow or job level, and grants no permission by default", () => {
    expect(JSON.stringify(wf.env ?? {})).not.toContain("secrets.");
    expect(wf.permissions).toEqual({});
    for (const job of Object.values(wf.jobs)) expect(JSON.stringify(job.env ?? {})).not.toContain("secrets.");
  });

  it("calls package bins from node_modules (npx could download a same-named package), with commands and flags that exist", () => {
    const text = runs(wf);
    expect(text).not.toMatch(/\bnpx\b/);
    for (const m of text.matchAll(/guardrails-ci (\S+)(.*)/g)) {
      expect(["preview", "drift-issue"]).toContain(m[1]);
      for (const flag of m[2]!.match(/--[a-z-]+/g) ?? [])
        expect(["--base", "--head", "--data", "--comment", "--open-issues"]).toContain(flag);
    }
    for (const m of text.matchAll(/guardrails-preview-summary(.*)/g))
      for (const flag of m[1]!.match(/--[a-z-]+/g) ?? [])
        expect(["--drift", "--event-log", "--fail-on-loosening"]).toContain(flag);
  });
});

describe("guardrails.yml: pull-request previews", () => {
  const wf = load("guardrails.yml");
  it("uses pull_request_target, so the steps holding the key are the base branch's, never the PR's", () => {
    expect(Object.keys(wf.on).sort()).toEqual(["pull_request_target", "push"]);
  });

  it("the automatic job checks out the default branch, runs only its code, and gives the key only to the preview step gated on guardrails-ci", () => {
    const job = wf.jobs.preview!;
    expect(job.if).toContain("github.event.pull_request.head.repo.full_name == github.repository");
    expect(job.if).toContain("github.event.pull_request.base.ref == github.event.repository.default_branch");
    expect(job.environment).toBe("guardrails-preview");
    const checkout = job.steps.find((s) => s.uses?.startsWith("actions/checkout"))!;
    expect(checkout.with!.ref).toBe("${{ github.sha }}");
    expect(JSON.stringify(job.steps)).not.toMatch(/pull_request\.(head|base)\.(sha|ref)/);
    expect(job.steps.find((s) => s.run?.includes("guardrails-ci preview"))!.run).toContain('--base "$GITHUB_SHA"');
    const select = job.steps.find((s) => s.run?.includes("guardrails-ci preview"))!;
    const index = job.steps.indexOf(select);
    expect(secretSteps(job)).toEqual([job.steps.find((s) => s.name?.startsWith("Preview"))]);
    expect(job.steps.indexOf(secretSteps(job)[0]!)).toBeGreaterThan(index);
    expect(secretSteps(job)[0]!.if).toBe("steps.select.outputs.preview == 'true'");
  });

  it("every pull request and every push to main runs, whatever paths it touches: guardrails-ci decides, not a trigger filter", () => {
    expect(wf.on.pull_request_target ?? {}).not.toHaveProperty("paths");
    expect(wf.on.pull_request_target ?? {}).not.toHaveProperty("paths-ignore");
    expect(wf.on.push).toEqual({ branches: ["main"] });
  });

  it("an approval never runs an older push's code: a newer push cancels the run, and the run checks the PR's head before any of its code runs", () => {
    const job = wf.jobs["approved-preview"]!;
    expect(job.concurrency).toEqual({
      group: "guardrails-approved-preview-${{ github.event.pull_request.number }}",
      "cancel-in-progress": true,
    });
    const check = job.steps[0]!;
    expect(check.env).toMatchObject({
      GH_TOKEN: "${{ github.token }}",
      PR_NUMBER: "${{ github.event.pull_request.number }}",
      RUN_SHA: "${{ github.event.pull_request.head.sha }}",
    });
    expect(check.run).toContain('head=$(gh api "repos/$GITHUB_REPOSITORY/pulls/$PR_NUMBER" --jq .head.sha)');
    expect(check.run).toMatch(/if \[ "\$head" != "\$RUN_SHA" \]; then\n[^\n]*\n\s*exit 1\n\s*fi/);
    const checkout = job.steps.findIndex((s) => s.uses?.startsWith("actions/checkout"));
    expect(job.steps[checkout]!.with!.ref).toBe(check.env!.RUN_SHA);
    expect(checkout).toBeGreaterThan(0);
    expect(job.steps.indexOf(secretSteps(job)[0]!)).toBeGreaterThan(checkout);
  });

  it("code changes and forks go to a job behind the protected environment, with a read-only token", () => {
    const job = wf.jobs["approved-preview"]!;
    expect(job.environment).toBe("guardrails-code-preview");
    expect(job.permissions).toEqual({ contents: "read", "pull-requests": "read" });
    expect(job.if).toContain("needs.preview.outputs.mode == 'code'");
    expect(job.if).toContain("github.event.pull_request.head.repo.full_name != github.repository");
    expect(job.if).toContain("github.event.pull_request.base.ref != github.event.repository.default_branch");
    expect(secretSteps(wf.jobs["approved-comment"]!)).toEqual([]);
  });
});

describe("drift.yml: the scheduled drift check", () => {
  const wf = load("drift.yml");
  it("runs on a schedule and by hand; only the refreshed preview holds the key; the issue steps follow guardrails-ci drift-issue", () => {
    expect(Object.keys(wf.on).sort()).toEqual(["schedule", "workflow_dispatch"]);
    const job = wf.jobs.drift!;
    expect(secretSteps(job).map((s) => s.run)).toEqual([
      'pulumi preview --stack "$PULUMI_STACK" --refresh --json --non-interactive > preview.json',
    ]);
    expect(runs(wf)).toContain("guardrails-preview-summary --drift preview.json");
    expect(job.steps.map((s) => s.if).filter(Boolean)).toEqual([
      "steps.decide.outputs.action == 'open'",
      "steps.decide.outputs.action == 'update'",
      "steps.decide.outputs.action == 'close'",
    ]);
    expect(job.permissions).toEqual({ contents: "read", issues: "write" });
  });

  it("touches only issues it opened: lists author and body for guardrails-ci, and writes the marker first in every body it sets", () => {
    const steps = wf.jobs.drift!.steps;
    const list = steps.find((s) => s.run?.includes("gh issue list"))!.run!;
    expect(list).toMatch(/gh issue list [^\n]*--json number,author,body > open\.json/);
    expect(list).toContain("guardrails-ci drift-issue preview.json --open-issues open.json");
    expect(runs(wf)).toContain(`{ echo '${DRIFT_MARKER}'; echo; cat drift.md; } > issue.md`);
    const writes = runs(wf)
      .split("\n")
      .filter((l) => /gh issue (create|edit)/.test(l));
    expect(writes).toHaveLength(2);
    for (const w of writes) expect(w).toContain("--body-file issue.md");
    // Every issue number the job acts on comes from guardrails-ci's decision, never from a label query.
    for (const s of steps.filter((s) => /gh issue (edit|comment|close)/.test(s.run ?? "")))
      expect(JSON.stringify(s.env)).toMatch(/steps\.decide\.outputs\.issues?/);
  });
});

describe("guardrails.yml: the organization's policy pack", () => {
  const wf = load("guardrails.yml");
  const previews = (["preview", "approved-preview"] as const).map(
    (j) => wf.jobs[j]!.steps.find((s) => s.run?.includes("pulumi preview"))!,
  );

  it("every preview runs the pack and writes the event log the summary reads (violations are not in --json)", () => {
    for (const step of previews) {
      expect(step.env!.PULUMI_DEBUG_COMMANDS).toBe("1");
      expect(step.run).toMatch(/pulumi preview [^\n]*--json [^\n]*--policy-pack policy --event-log events\.jsonl/);
      expect(step.run).toMatch(/guardrails-preview-summary --event-log events\.jsonl preview\.json/);
      // A failed preview (a mandatory violation) still gets its summary, and fails the job after.
      expect(step.run).toContain("|| status=$?");
    }
    for (const job of [wf.jobs.preview!, wf.jobs["approved-preview"]!]) expect(job.steps.at(-1)!.run).toBe("exit 1");
    expect(wf.jobs["approved-comment"]!.if).toContain("needs.approved-preview.result == 'failure'");
    expect(wf.jobs.up!.steps.find((s) => s.run?.includes("pulumi up"))!.run).toContain("--policy-pack policy");
  });

  it("a change that loosens a guardrail needs the maintainers' label (issue 30); unchanged guardrails are in the JSON for moves", () => {
    expect((wf.on.pull_request_target as { types: string[] }).types).toEqual(
      expect.arrayContaining(["opened", "synchronize", "labeled", "unlabeled"]),
    );
    for (const [j, step] of [wf.jobs.preview!, wf.jobs["approved-preview"]!].map(
      (job, i) => [job, previews[i]!] as const,
    )) {
      expect(step.run).toContain("--show-sames");
      expect(step.run).toMatch(/guardrails-preview-summary [^\n]*--fail-on-loosening[^\n]*\|\| loosens=\$\?/);
      expect(step.run).toContain('echo "loosens=$([ "$loosens" = 3 ] && echo true || echo false)" >> "$GITHUB_OUTPUT"');
      const gate = j.steps.find((s) => s.name?.includes("guardrails-loosening-approved"))!;
      expect(gate.if).toBe(
        "steps.preview.outputs.loosens == 'true' && !contains(github.event.pull_request.labels.*.name, 'guardrails-loosening-approved')",
      );
      expect(gate.run).toMatch(/exit 1\s*$/);
      // The summary is written (and commented or uploaded) before the gate fails the job.
      const writes = j.steps.findIndex(
        (s) => s.uses?.startsWith("marocchino/") || s.uses?.startsWith("actions/upload-artifact"),
      );
      expect(j.steps.indexOf(gate)).toBeGreaterThan(writes);
    }
  });

  it("the pack and its rules file exist beside the workflow's program", () => {
    const root = join(dir, "../..");
    expect(readFileSync(join(root, "policy/PulumiPolicy.yaml"), "utf8")).toMatch(/^runtime: nodejs$/m);
    expect(readFileSync(join(root, "policy/index.ts"), "utf8")).toContain(
      "policiesFromFile(`${__dirname}/../guardrails/policy.yaml`)",
    );
    expect(readFileSync(join(root, "guardrails/policy.yaml"), "utf8")).toContain("schema/policy.schema.json");
  });
});
