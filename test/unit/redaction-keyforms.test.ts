/**
 * Redaction against the key forms the issue 38 attack pass got through (redaction.ts `redact`,
 * key-forms.ts): JSON `\u` and `\x` escapes, hex bytes in either case, base64 of base64, and
 * the key cut short (any long enough run of the key is the key). A form the text can be cut
 * around is replaced in place; an encoded one withholds the text whole.
 */
import { describe, expect, it } from "vitest";
import { redact, redactValue, serverText, WITHHELD } from "../../src/core/client/redaction";

const KEY = "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";
const b64 = (t: string) => Buffer.from(t).toString("base64");
const hex = (t: string) => Buffer.from(t).toString("hex");
const uesc = (t: string) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const xesc = (t: string) => [...t].map((c) => `\\x${c.charCodeAt(0).toString(16)}`).join("");

describe("redact: the key in a form the text is withheld for", () => {
  it.each([
    ["JSON \\u escapes", `header was "${uesc(`Bearer ${KEY}`)}"`],
    ["JSON \\u escapes, upper-case hex", `header was "${uesc(KEY).toUpperCase().replaceAll("\\U", "\\u")}"`],
    ["\\x escapes", `key ${xesc(KEY)}`],
    ["hex bytes", `token bytes ${hex(KEY)}`],
    ["hex bytes, upper case", `token bytes ${hex(KEY).toUpperCase()}`],
    ["hex bytes at an odd offset of a run", `token bytes a${hex(`Bearer ${KEY}`)}`],
    ["base64 of base64 of Bearer <key>", b64(b64(`Bearer ${KEY}`))],
    ["base64url of base64 of the key", Buffer.from(b64(KEY)).toString("base64url")],
    ["base64 of base64 glued to a word (another alignment)", `token=ab${b64(b64(`Bearer ${KEY}`))}`],
    ["base64 of base64 glued to one letter", `x${b64(b64(KEY))}`],
    ["hex of the key cut short", `token ${hex(KEY.slice(0, 40))}`],
    ["base64 of the key cut short", `token ${b64(KEY.slice(0, 40))}`],
    ["\\u escapes of the key cut short", uesc(KEY.slice(0, 30))],
  ])("%s: withheld", (_form, echoed) => {
    expect(redact(`invalid: ${echoed} (rejected)`, KEY)).toBe(WITHHELD);
  });

  it("withholds a server's text, and a metadata string, in such a form before cutting it", () => {
    expect(serverText(`x ${hex(KEY)}`, KEY)).toBe(WITHHELD);
    expect(redactValue({ echo: b64(b64(`Bearer ${KEY}`)), n: 1 }, KEY)).toEqual({ echo: WITHHELD, n: 1 });
  });
});

describe("redact: the key cut short is the key", () => {
  it.each([
    ["missing its last character", KEY.slice(0, -1)],
    ["36 of its 64 characters after the prefix", KEY.slice(0, 45)],
    ["16 characters from its middle", KEY.slice(30, 46)],
    ["its tail", KEY.slice(-20)],
    ["upper case, cut", KEY.slice(0, 30).toUpperCase()],
  ])("%s: replaced in place", (_form, echoed) => {
    expect(redact(`invalid key ${echoed}... (rejected)`, KEY)).toBe("invalid key [REDACTED]... (rejected)");
  });

  it("a run of the key shorter than 16 characters (or half a shorter key) is left: it is not the key", () => {
    expect(redact(`x ${KEY.slice(30, 45)} y`, KEY)).toBe(`x ${KEY.slice(30, 45)} y`);
    const short = "gr-0123456789abcdefghi"; // 22 characters: half is 11
    expect(redact(`x ${short.slice(5, 16)} y`, short)).toBe("x [REDACTED] y");
    expect(redact(`x ${short.slice(5, 15)} y`, short)).toBe(`x ${short.slice(5, 15)} y`);
    // A key under 16 characters is matched whole only, never by a run.
    expect(redact("x abcdefg y", "abcdefghijklmno")).toBe("x abcdefg y");
  });

  it("every run of the key is replaced, the text between kept", () => {
    expect(redact(`a ${KEY.slice(0, 20)} b ${KEY.slice(40)} c`, KEY)).toBe("a [REDACTED] b [REDACTED] c");
  });
});

describe("redact: a text with no form of the key is kept", () => {
  it("hex ids, base64 and escapes that hold no run of the key", () => {
    for (const plain of [
      "guardrail 3f2b8c1e-0000-4000-8000-000000000001 not found; sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
      `token ${b64(b64("Bearer some-other-key-0123456789"))} and ${hex("some other text entirely")}`,
      'name "\\u0045ng" \\x41 and QUJD',
    ])
      expect(redact(plain, KEY)).toBe(plain);
  });
});

describe("serverText reads a head of a long text: the rest is never shown", () => {
  it("counts what it drops as before, and sees a key straddling the cut", () => {
    const text = `${"a".repeat(495)}${KEY}${"z".repeat(10_000)}`;
    expect(serverText(text, KEY)).toBe(`${"a".repeat(495)}[REDA… (10005 more characters)`);
    expect(serverText(`${"a".repeat(495)}${hex(KEY)}${"z".repeat(10_000)}`, KEY)).toBe(WITHHELD);
    // Past the head, an encoded key is dropped unread: it is never shown.
    const far = `${"b".repeat(3000)}${hex(KEY)}`;
    expect(serverText(far, KEY)).toBe(`${"b".repeat(500)}… (${far.length - 500} more characters)`);
    // A text that shrank under the bound once the key was taken out still says what was dropped.
    const many = `${`${KEY} `.repeat(20)}${"c".repeat(3000)}`;
    const out = serverText(many, KEY);
    expect(out).toBe(`${"[REDACTED] ".repeat(20)}${"c".repeat(252)}… (2748 more characters)`);
  });
});
