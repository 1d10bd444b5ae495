/** core/urn.ts: the one reader of Pulumi URNs, on every form the copies it replaced handled. */
import { describe, expect, it } from "vitest";
import { lastNameOfUrn, parseUrn, typeOfUrn } from "../../src/core/urn";

describe("parseUrn", () => {
  it("reads a plain URN's parts", () => {
    expect(parseUrn("urn:pulumi:dev::proj::guardrails:index:Guardrail::eng")).toEqual({
      head: "urn:pulumi:dev::proj",
      stack: "dev",
      project: "proj",
      qualifiedType: "guardrails:index:Guardrail",
      type: "guardrails:index:Guardrail",
      name: "eng",
    });
  });

  it("reads the resource's own type after its parents' (`$`)", () => {
    const p = parseUrn("urn:pulumi:dev::proj::pulumi:pulumi:Stack$my:Team$guardrails:index:Guardrail::eng");
    expect(p?.qualifiedType).toBe("pulumi:pulumi:Stack$my:Team$guardrails:index:Guardrail");
    expect(p?.type).toBe("guardrails:index:Guardrail");
    expect(typeOfUrn("urn:pulumi:dev::proj::my:Team$pulumi-nodejs:dynamic/guardrails:Guardrail::eng")).toBe(
      "pulumi-nodejs:dynamic/guardrails:Guardrail",
    );
  });

  it("reads a name holding `::` whole, as Pulumi does; lastNameOfUrn reads its last part", () => {
    const urn = "urn:pulumi:dev::proj::guardrails:index:Guardrail::team::eng";
    expect(parseUrn(urn)?.name).toBe("team::eng");
    expect(lastNameOfUrn(urn)).toBe("eng");
    // A name that starts with `::` still never gives lastNameOfUrn one holding `::` (set-sides.ts relies on it).
    expect(lastNameOfUrn("urn:pulumi:dev::proj::guardrails:index:Guardrail::::outside 1")).toBe("outside 1");
  });

  it("is undefined for text that is not a URN; its type is then empty", () => {
    for (const text of ["", "u", "urn:pulumi:dev::proj::type", "urn:other:dev::proj::type::name"]) {
      expect(parseUrn(text)).toBeUndefined();
      expect(typeOfUrn(text)).toBe("");
    }
  });

  it("lastNameOfUrn of text without `::` is the text itself; of a trailing `::`, empty", () => {
    expect(lastNameOfUrn("u")).toBe("u");
    expect(lastNameOfUrn("urn:pulumi:dev::proj::pulumi:pulumi:Stack::")).toBe("");
  });
});
