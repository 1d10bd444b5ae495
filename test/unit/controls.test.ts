import { describe, expect, it } from "vitest";
import { shown } from "../../src/core/args/messages";
import { statusName } from "../../src/core/assignments/status";
import { blankControls, blankLayout, escapeInvisible, hasControl, isInvisible } from "../../src/core/text/controls";
import { visible } from "../../src/core/text/markdown";
import { quote } from "../../src/policy/quote";

describe("control and invisible characters: one home (issue 25)", () => {
  const hostile = "a\u001b[2J\u202e\u200b\u2028\ufe0fb";

  it("the three sets nest: controls, layout characters, invisible characters", () => {
    expect(blankControls(hostile)).toBe("a [2J\u202e\u200b\u2028\ufe0fb");
    expect(blankLayout(hostile)).toBe("a [2J \ufe0fb");
    expect([..."\u0000\u009f\u202e\u200b\u2028\ufe0f\u{e0001}\u{f0000}"].every(isInvisible)).toBe(true);
    expect([..."aé€😀 "].some(isInvisible)).toBe(false);
  });

  it("JSON-style escapes, one per UTF-16 unit beyond the BMP", () => {
    expect(escapeInvisible(hostile)).toBe("a\\u001b[2J\\u202e\\u200b\\u2028\\ufe0fb");
    expect(escapeInvisible("x\u{e0041}y")).toBe("x\\udb40\\udc41y");
  });

  it("messages escape zero-width and format characters too, not only bidi controls", () => {
    expect(shown("ad\u200bmin\u2060")).toBe('"ad\\u200bmin\\u2060"');
  });

  it("a status keeps the set state was written with (layout characters become spaces)", () => {
    expect(statusName("Eng\u202e\u200b\u2028ops\ufe0f")).toBe("Eng ops\ufe0f");
  });

  it("a policy quote and the Markdown neutraliser show a hostile value the same way", () => {
    expect(quote("x\u202ey")).toBe(visible('"x\u202ey"'));
    expect(quote("x\u202ey")).toBe('"x<U+202E>y"');
  });
});

// Issue 31: the edges of each set that a mutant of controls.ts moved without a failing test.
describe("control and invisible characters: the edges", () => {
  it("a run of controls is one space, not one per character", () => {
    expect(blankControls("a\u001b\u0007\u0000b")).toBe("a b");
  });

  it("hasControl is true for a C0, DEL or C1 control only, never for other invisible characters", () => {
    for (const s of ["a\nb", "\u007f", "x\u0085"]) expect(hasControl(s), JSON.stringify(s)).toBe(true);
    for (const s of ["plain", "", "\u202e", "\u200b", "\u2028"]) expect(hasControl(s), JSON.stringify(s)).toBe(false);
  });

  it("isInvisible judges exactly one code point: a visible one beside an invisible one is not invisible", () => {
    expect(isInvisible("\u200b")).toBe(true);
    expect(isInvisible("a\u200b")).toBe(false);
    expect(isInvisible("\u200ba")).toBe(false);
  });
});
