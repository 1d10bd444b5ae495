/**
 * `guardrails-export` against a hostile target folder and hostile names (issue 24, findings 6
 * and 7): no file written through a link or outside the folder, no file name the loader skips
 * or Windows cannot check out, and no `[]` that the loader rejects.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadGuardrailConfigs } from "../../src/declarative/load";
import { wireGuardrail } from "../../src/core/client/wire";
import {
  comparableInputs,
  comparableOutputs,
  outputsFromWire,
  type GuardrailOutputs,
} from "../../src/core/guardrail/model";
import { declaredFromLive } from "../../src/export/declared";
import { ExportConflictError, ExportTargetError, writeExport, exportGuardrails } from "../../src/export/export";
import { renderGuardrailFile } from "../../src/export/render";
import { assignStableIds } from "../../src/export/stable-id";
import { ExportSelectionError } from "../../src/export/fetch";
import { GuardrailsClient } from "../../src/core/client";
import { hostileServer, json } from "../helpers/hostile-server";
import { exportedFile as file, exportScratch, thrown } from "../helpers/export-cases";
import { doubleAssignments } from "../../src/export/double-assignments";
import { ANSWERED_LISTS } from "../helpers/wire-fields";

const { work, folder, beside } = exportScratch("export-hostile-");

describe("writeExport never writes through a link (finding 6)", () => {
  it("a dangling link in the folder: refused without --force, naming it; the file it points to is not created", () => {
    const dir = folder();
    const outside = beside("planted", ".yaml");
    symlinkSync(outside, join(dir, "engineering.yaml"));
    const err = thrown(() => writeExport(dir, [file("engineering"), file("support")]));
    expect(err.message).toBe(
      `${join(dir, "engineering.yaml")} is a symbolic link; guardrails-export never writes through a link: remove it, or export into another folder`,
    );
    expect(() => lstatSync(outside)).toThrow(/ENOENT/);
    // Nothing at all is written when one target is refused.
    expect(readdirSync(dir)).toEqual(["engineering.yaml"]);
  });

  it("with --force, a link to a file outside the folder: refused, the outside file untouched, the link left as it was", () => {
    const dir = folder();
    const outside = beside("victim", ".txt");
    writeFileSync(outside, "precious\n");
    symlinkSync(outside, join(dir, "engineering.yaml"));
    const err = thrown(() => writeExport(dir, [file("engineering")], { force: true }));
    expect(err.message).toContain(`${join(dir, "engineering.yaml")} is a symbolic link`);
    expect(readFileSync(outside, "utf8")).toBe("precious\n");
    expect(readlinkSync(join(dir, "engineering.yaml"))).toBe(outside);
  });

  it("with --force, a link to a file inside the folder is refused too, and every link is named at once", () => {
    const dir = folder();
    writeFileSync(join(dir, "notes.txt"), "mine\n");
    symlinkSync("notes.txt", join(dir, "a.yaml"));
    symlinkSync("nowhere.yaml", join(dir, "b.yaml"));
    const err = thrown(() => writeExport(dir, [file("a"), file("b"), file("c")], { force: true }));
    expect(err.message.split("\n")).toEqual([
      `${join(dir, "a.yaml")} is a symbolic link; guardrails-export never writes through a link: remove it, or export into another folder`,
      `${join(dir, "b.yaml")} is a symbolic link; guardrails-export never writes through a link: remove it, or export into another folder`,
    ]);
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine\n");
    expect(readdirSync(dir).sort()).toEqual(["a.yaml", "b.yaml", "notes.txt"]);
  });

  it("the folder itself a link (dangling or not): refused before anything is created", () => {
    const real = folder();
    const link = beside("link");
    symlinkSync(real, link);
    expect(thrown(() => writeExport(link, [file("a")], { force: true })).message).toBe(
      `${link} is a symbolic link; guardrails-export writes only into a real folder: pass the folder it points to, or another one`,
    );
    expect(readdirSync(real)).toEqual([]);
    const dangling = beside("dangling");
    symlinkSync(beside("made-by-link"), dangling);
    expect(() => writeExport(dangling, [file("a")])).toThrow(/is a symbolic link/);
    expect(() => lstatSync(beside("made-by-link"))).toThrow(/ENOENT/);
  });

  it("a folder where a file should be is refused, never replaced", () => {
    const dir = folder();
    mkdirSync(join(dir, "a.yaml"));
    expect(thrown(() => writeExport(dir, [file("a")], { force: true })).message).toBe(
      `${join(dir, "a.yaml")} is not a regular file; guardrails-export replaces only files it could have written`,
    );
  });

  it("a file name that would leave the folder is refused", () => {
    const dir = folder();
    for (const fileName of ["../escape.yaml", "sub/x.yaml", "..", "/etc/x.yaml", "a\\b.yaml", ""]) {
      expect(() => writeExport(dir, [{ ...file("a"), fileName }], { force: true })).toThrow(/is not a plain file name/);
    }
    expect(readdirSync(dir)).toEqual([]);
    expect(() => lstatSync(join(work, "escape.yaml"))).toThrow(/ENOENT/);
  });

  it("a file name with an invisible character (bidi, zero-width, control) is refused, and quoted escaped", () => {
    const dir = folder();
    for (const fileName of ["\u202eevil.yaml", "a\u200bb.yaml", "a\u0001.yaml", "a\u0085.yaml"]) {
      const message = thrown(() => writeExport(dir, [{ ...file("a"), fileName }], { force: true })).message;
      expect(message).toMatch(/is not a plain file name/);
      expect(message).not.toMatch(/[\u0000-\u001f\u0085\u200b\u202e]/);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it("--force replaces a regular file (the new bytes, no temporary file left); without it the existing file wins", () => {
    const dir = folder();
    writeFileSync(join(dir, "a.yaml"), "# edited\n");
    expect(thrown(() => writeExport(dir, [file("a")]))).toBeInstanceOf(ExportConflictError);
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toBe("# edited\n");
    writeExport(dir, [file("a"), file("b")], { force: true });
    expect(readFileSync(join(dir, "a.yaml"), "utf8")).toBe(file("a").text);
    expect(readdirSync(dir).sort()).toEqual(["a.yaml", "b.yaml"]);
  });

  it("the system refusing the folder is a failure for a person (one line), not a bug (issue 25)", () => {
    const dir = folder();
    writeFileSync(join(dir, "plain"), "x\n");
    const err = thrown(() => writeExport(join(dir, "plain", "guardrails"), [file("a")]));
    expect(err).toBeInstanceOf(ExportTargetError);
    expect(err.message).toMatch(/^cannot write into .*plain\/guardrails: ENOTDIR: not a directory, /);
    expect((err.cause as NodeJS.ErrnoException).code).toBe("ENOTDIR");
  });
});

describe("stable ids never make a file the loader skips or Windows cannot check out (finding 7)", () => {
  const g = (id: string, name: string) => ({ id, name });

  it.each(["Policy", "POLICY", "policy", "Con", "nul", "PRN", "aux", "COM1", "com9", "LPT1", "lpt9"])(
    "%j gets a suffixed id",
    (name) => {
      const ids = assignStableIds([g("abcdef12-0000-4000-8000-000000000001", name)]);
      expect(ids.get("abcdef12-0000-4000-8000-000000000001")).toBe(`${name.toLowerCase()}-abcdef12`);
    },
  );

  it("names that merely contain a reserved word keep their slug", () => {
    const ids = assignStableIds([
      g("abcdef12-0000-4000-8000-000000000001", "Policy team"),
      g("abcdef12-0000-4000-8000-000000000002", "com10"),
      g("abcdef12-0000-4000-8000-000000000003", "console"),
      g("abcdef12-0000-4000-8000-000000000004", "Falcon"),
    ]);
    expect([...ids.values()]).toEqual(["policy-team", "com10", "console", "falcon"]);
  });

  it("a guardrail named Policy is exported into a file the loader reads, and never over the rules file", () => {
    const dir = folder();
    writeFileSync(join(dir, "policy.yaml"), "# the organization's rules\n");
    const ids = assignStableIds([g("abcdef12-0000-4000-8000-000000000001", "Policy")]);
    const id = ids.get("abcdef12-0000-4000-8000-000000000001")!;
    writeExport(
      dir,
      [
        {
          ...file(id),
          text: renderGuardrailFile([[id, { name: "Policy", adoptId: "abcdef12-0000-4000-8000-000000000001" }]]),
        },
      ],
      { force: true },
    );
    expect(readFileSync(join(dir, "policy.yaml"), "utf8")).toBe("# the organization's rules\n");
    expect(loadGuardrailConfigs(dir).map((c) => [c.id, c.settings.name])).toEqual([["policy-abcdef12", "Policy"]]);
  });
});

describe("an empty list the service answers (finding 7)", () => {
  it.each(ANSWERED_LISTS)("%s: [] reads as null, so the export leaves it out and the file loads", (wire) => {
    const g = wireGuardrail.parse({
      id: "3f2b8c1e-0000-4000-8000-000000000001",
      name: "Open",
      created_at: "2026-01-01T00:00:00.000Z",
      workspace_id: null,
      [wire]: [],
    });
    expect((g as Record<string, unknown>)[wire]).toBeNull();
    const { settings, warnings } = declaredFromLive({ guardrail: g, members: [], keys: [] }, false);
    expect(warnings).toEqual([]);
    expect(settings).toEqual({ name: "Open", adoptId: "3f2b8c1e-0000-4000-8000-000000000001" });
    const dir = folder();
    writeExport(dir, [{ ...file("open"), text: renderGuardrailFile([["open", settings]]) }]);
    expect(loadGuardrailConfigs(dir)).toHaveLength(1);
  });
});

describe("state that recorded [] (read before [] meant null)", () => {
  it("compares as the setting left out, so a file without it previews no change", () => {
    const outs = outputsFromWire(
      wireGuardrail.parse({
        id: "3f2b8c1e-0000-4000-8000-000000000001",
        name: "Open",
        created_at: "2026-01-01T00:00:00.000Z",
        workspace_id: null,
      }),
      undefined,
    );
    const recorded = {
      ...outs,
      allowedModels: [],
      allowedModelsCanonical: [],
      allowedProviders: [],
      contentFilterBuiltins: [],
      contentFilters: [],
      allowedDataRegions: [],
    } as unknown as GuardrailOutputs;
    expect(comparableOutputs(recorded)).toEqual(comparableInputs({ name: "Open" } as never));
  });
});

describe("a service that cannot list its workspaces (no GET /workspaces)", () => {
  it("a missed --only keeps its plain error; --all-workspaces fails loudly, naming the call", async () => {
    const server = await hostileServer((req, res) => {
      if (req.url?.startsWith("/api/v1/guardrails?"))
        return json(res, 200, {
          data: [
            {
              id: "3f2b8c1e-0000-4000-8000-000000000001",
              name: "A",
              created_at: "2026-01-01T00:00:00.000Z",
              workspace_id: "00000000-0000-4000-8000-000000000001",
            },
          ],
          total_count: 1,
        });
      json(res, 404, { error: { code: 404, message: "not found", metadata: null } });
    });
    const client = new GuardrailsClient({ baseUrl: server.url, apiKey: "k-0123456789", retry: { maxAttempts: 1 } });
    try {
      await expect(exportGuardrails({ client, only: ["B"] })).rejects.toThrow(new ExportSelectionError(["B"]));
      await expect(exportGuardrails({ client, allWorkspaces: true })).rejects.toThrow(
        /GET .*\/api\/v1\/workspaces.*404/,
      );
      expect(server.requests.map((r) => r.url.split("?")[0])).toContain("/api/v1/workspaces");
    } finally {
      await client.close();
      await server.close();
    }
  });
});

describe("double assignments across workspace ids in two cases (issue 24, finding 13)", () => {
  it("a member on two guardrails whose workspace ids differ only in case is named, as the loader would refuse it", () => {
    const live = (id: string, ws: string) => ({
      guardrail: wireGuardrail.parse({ id, name: id, workspace_id: ws, created_at: "2026-01-01T00:00:00.000Z" }),
      members: ["user_a"],
      keys: [],
    });
    const [g1, g2] = ["3f2b8c1e-0000-4000-8000-000000000001", "3f2b8c1e-0000-4000-8000-000000000002"];
    const ids = new Map([
      [g1, "eng"],
      [g2, "support"],
    ]);
    const found = doubleAssignments(
      [live(g1, "ABCDEF00-0000-4000-8000-000000000001"), live(g2, "abcdef00-0000-4000-8000-000000000001")],
      ids,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(
      /member "user_a" is assigned to two guardrails of workspace abcdef00-0000-4000-8000-000000000001: "eng" and "support"/,
    );
  });
});
