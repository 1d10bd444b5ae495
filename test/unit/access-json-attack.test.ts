/**
 * Attack pass on `guardrails-access ... --json` (renderJson): a hostile server's names hold
 * every kind of invisible character. The output must carry none raw (a JSON `\u` escape each)
 * and parse back to exactly the same values, lone surrogates and non-BMP characters included.
 */
import { describe, expect, it } from "vitest";
import { renderJson } from "../../src/access";

const HOSTILE = [
  "\ud800",
  "a\udfffb",
  "\u{1f600}",
  "\u{e0001}tag",
  "\u{10ffff}",
  "\u2028\u2029",
  "\u007f\u0085\u009b31m",
  "\u202egpj.exe\u2066\u2069",
  "\ufeff\u200b\u200d",
  "\u0378\u{50000}",
  "\u115f\u3164\ufe0f",
  '\\"\u202e\\',
  "\u001b[31m\u0000",
];
const RAW = /[\p{C}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

describe("renderJson of hostile names", () => {
  it("writes none raw, and parses back to the very same values (keys too)", () => {
    const answer = {
      subject: { member: HOSTILE.join("") },
      layers: HOSTILE.map((name, i) => ({ id: String(i), name, [name]: name })),
    };
    const text = renderJson(answer as never);
    for (const line of text.split("\n")) expect(line).not.toMatch(RAW);
    expect(JSON.parse(text)).toStrictEqual(answer);
  });
});
