/**
 * Import ids against a hand-made or moved id (issue 38 attack pass): a `secret` list names
 * only the resource kind's args (a name like `__proto__` once turned the import's outputs into
 * a secret envelope), and a sealed part opens only under the id and kind it was sealed for.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { managedImportId, parseSetImportId } from "../../src/core/assignments/import-id";
import { KEY_KIND, MEMBER_KIND } from "../../src/core/assignments/kind";
import { managedGuardrailImportId, parseGuardrailImportId } from "../../src/core/guardrail/import-id";
import { newSealKey, SEAL_ENV } from "../../src/core/import-seal";

const A = "11111111-1111-4111-8111-111111111111";
const B = "22222222-2222-4222-8222-222222222222";

describe("an import id's secret list names only the resource's args", () => {
  it.each(["__proto__", "constructor", "toString", "notAField"])("a guardrail's: %s is refused, named", (name) => {
    const id = `${A}?${JSON.stringify({ secret: ["limitUsd", name] })}`;
    expect(() => parseGuardrailImportId(id)).toThrow(
      new RegExp(
        `Guardrail: cannot import .*; here secret names ${JSON.stringify(name)}, which is not an arg of Guardrail`,
      ),
    );
  });

  it.each(["__proto__", "constructor", "toString", "notAField", "limitUsd"])(
    "a set's: %s is refused, named",
    (name) => {
      const id = `${A}/members?${JSON.stringify({ exclusive: false, ids: ["a"], secret: [name] })}`;
      expect(() => parseSetImportId(MEMBER_KIND, id)).toThrow(
        new RegExp(`; here secret names ${JSON.stringify(name)}, which is not an arg of GuardrailMemberAssignment`),
      );
    },
  );

  it("accepts every arg the kind has, and the state's word for a set's ids", () => {
    expect(parseGuardrailImportId(`${A}?{"secret":["allowedModels","name","adoptId","workspaceId"]}`).secret).toEqual([
      "allowedModels",
      "name",
      "adoptId",
      "workspaceId",
    ]);
    const names = ["exclusive", "guardrailId", "keyHashes", "keys"];
    expect(
      parseSetImportId(KEY_KIND, `${A}/keys?${JSON.stringify({ exclusive: true, ids: ["h"], secret: names })}`).secret,
    ).toEqual(names);
  });
});

describe("a sealed part opens only under the id and kind it was sealed for", () => {
  let saved: string | undefined;
  const key = newSealKey();
  beforeEach(() => {
    saved = process.env[SEAL_ENV];
    process.env[SEAL_ENV] = key;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[SEAL_ENV];
    else process.env[SEAL_ENV] = saved;
  });
  const sealedOf = (id: string) => (JSON.parse(id.slice(id.indexOf("?") + 1)) as { sealed: string }).sealed;

  it("a set's, moved to another guardrail or to the other kind, is refused", () => {
    const members = managedImportId(A, "members", { exclusive: true, ids: ["user_secret1"] }, ["memberUserIds"], key);
    expect(parseSetImportId(MEMBER_KIND, members).managed).toEqual({ exclusive: true, ids: ["user_secret1"] });
    expect(() => parseSetImportId(MEMBER_KIND, members.replace(A, B))).toThrow(/sealed part does not open/);
    const keys = managedImportId(A, "keys", { exclusive: true, ids: ["abc"] }, ["keyHashes"], key);
    expect(() => parseSetImportId(KEY_KIND, keys.replace(sealedOf(keys), sealedOf(members)))).toThrow(
      /sealed part does not open/,
    );
  });

  it("a guardrail's, moved to another guardrail or into a set's id, is refused", () => {
    const models = { allowedModels: { sent: ["a/x"], answer: ["a/x-1"] } };
    const g = managedGuardrailImportId(A, models, ["allowedModels"], key);
    expect(parseGuardrailImportId(g).models).toEqual(models);
    expect(() => parseGuardrailImportId(g.replace(A, B))).toThrow(/sealed part does not open/);
    // The id is compared as the parse records it: a UUID in upper case is the same id.
    expect(parseGuardrailImportId(g.replace(A, A.toUpperCase())).models).toEqual(models);
    const members = managedImportId(A, "members", { exclusive: true, ids: ["x"] }, ["memberUserIds"], key);
    expect(() => parseGuardrailImportId(`${A}?${JSON.stringify({ sealed: sealedOf(members) })}`)).toThrow(
      /sealed part does not open/,
    );
  });
});
