/**
 * `guardrails:index:loadGuardrailFiles`, the declarative route of the Python, Go and YAML
 * programs (issue 28): the plugin answers what src/declarative's loader reads, and fails with
 * that loader's problems, word for word; a missing path is a check failure on `path`.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DeclarativeConfigError, loadGuardrailConfigs } from "../../src/declarative/load";
import { ProviderConfig } from "../../src/core/settings/config";
import { invoke } from "../../src/native/invoke";
import { LOAD_GUARDRAIL_FILES } from "../../src/native/load-files";
import { fromStruct, toStruct } from "../../src/native/wire";

const example = join(__dirname, "../../examples/declarative/guardrails");
const work = mkdtempSync(join(tmpdir(), "load-files-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const call = (args: Record<string, unknown>) => {
  const req = new provproto.InvokeRequest();
  req.setTok(LOAD_GUARDRAIL_FILES);
  req.setArgs(toStruct(args as never));
  return invoke(new ProviderConfig(), req);
};

describe(LOAD_GUARDRAIL_FILES, () => {
  it("answers every declared guardrail as the loader reads it: id, where, settings, sets", async () => {
    const resp = await call({ path: example });
    expect(resp.getFailuresList()).toEqual([]);
    const { guardrails } = fromStruct(resp.getReturn()).props as { guardrails: any[] };
    const loaded = loadGuardrailConfigs(example);
    expect(guardrails.map((g) => g.id)).toEqual(loaded.map((l) => l.id));
    for (const [i, { settings, at }] of loaded.entries()) {
      const { members, keys, ...args } = settings;
      expect(guardrails[i].settings).toEqual(JSON.parse(JSON.stringify(args)));
      expect(guardrails[i].at).toBe(`${at.file}:${at.line}:${at.column}`);
      expect(guardrails[i].members).toEqual(members && { ids: members.ids, exclusive: members.exclusive ?? false });
      expect(guardrails[i].keys).toEqual(keys && { ids: keys.ids, exclusive: keys.exclusive ?? false });
    }
    expect(guardrails.some((g) => g.members?.exclusive === true)).toBe(true);
  });

  it("fails with the loader's own problems, every one at once", async () => {
    const folder = join(work, "bad");
    cpSync(example, folder, { recursive: true });
    writeFileSync(join(folder, "bad.yaml"), "guardrails:\n  bad:\n    name: Bad\n    limitUsd: -50\n    limitUSD: 5\n");
    let problems: string[] = [];
    try {
      loadGuardrailConfigs(folder);
    } catch (err) {
      problems = (err as DeclarativeConfigError).problems;
    }
    expect(problems.length).toBeGreaterThanOrEqual(2);
    const failed = await call({ path: folder }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(failed).toBeInstanceOf(DeclarativeConfigError);
    expect((failed as DeclarativeConfigError).problems).toEqual(problems);
  });

  it("refuses a missing or empty path as a check failure on `path`, reading nothing", async () => {
    for (const args of [{}, { path: "" }, { path: 5 }]) {
      const resp = await call(args);
      expect(resp.getFailuresList().map((f) => f.getProperty())).toEqual(["path"]);
      expect(resp.getReturn()).toBeUndefined();
    }
  });
});
