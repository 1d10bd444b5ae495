/**
 * The Markdown neutraliser, proven at the unit level (issue 31): every line break flattened,
 * every invisible code point (bidi controls included: Trojan Source) shown as `<U+XXXX>`, the
 * length bound never cutting inside an escape, and code spans, table cells and plain text that no
 * outside string can break out of.
 */
import { describe, expect, it } from "vitest";
import { cell, code, SHOWN_MAX, text, visible } from "../../src/core/text/markdown";

describe("visible: one line, nothing hidden", () => {
  it("shows each line break and tab as a space, so a name cannot start a Markdown line", () => {
    for (const c of ["\t", "\n", "\v", "\f", "\r", "\u0085", "\u2028", "\u2029"])
      expect(visible(`a${c}b`), JSON.stringify(c)).toBe("a b");
  });

  it("shows a run of line breaks as one space", () => {
    expect(visible("a\r\n\n\u2028b")).toBe("a b");
  });

  it("shows bidi controls, zero-width and format characters as upper-case, four-digit code points", () => {
    expect(visible("x\u202ey\u2066z\u200f")).toBe("x<U+202E>y<U+2066>z<U+200F>");
    expect(visible("a\u200bb\u00adc\u0000d")).toBe("a<U+200B>b<U+00AD>c<U+0000>d");
    expect(visible("tag\u{e0041}")).toBe("tag<U+E0041>");
  });

  it("leaves visible text alone, accents, symbols and emoji included", () => {
    expect(visible("Eng é € 😀 x")).toBe("Eng é € 😀 x");
  });

  it("cuts at SHOWN_MAX (120) characters by default, with an ellipsis", () => {
    expect(SHOWN_MAX).toBe(120);
    expect(visible("a".repeat(120))).toBe("a".repeat(120));
    expect(visible("a".repeat(121))).toBe(`${"a".repeat(120)}…`);
  });

  it("keeps a string of exactly max characters whole and cuts one more", () => {
    expect(visible("abcde", 5)).toBe("abcde");
    expect(visible("abcdef", 5)).toBe("abcde…");
  });

  it("never cuts inside an escape: one that does not fit is left out whole", () => {
    expect(visible("ab\u202ec", 9)).toBe("ab…");
    expect(visible("ab\u202ec", 10)).toBe("ab<U+202E>…");
    expect(visible("ab\u202e", 10)).toBe("ab<U+202E>");
  });
});

describe("code: a span nothing breaks out of", () => {
  it("turns backticks into a look-alike, so the span cannot close early", () => {
    expect(code("a`b``c")).toBe("`aˋbˋˋc`");
  });

  it("trims blanks at the ends of the span", () => {
    expect(code("  name \n")).toBe("`name`");
  });

  it("shows a span of blanks quoted, since it would render as nothing", () => {
    expect(code("   ")).toBe('`"   "`');
    expect(code("")).toBe('`""`');
  });

  it("neutralises what it shows and bounds it by max", () => {
    expect(code("a\u202eb")).toBe("`a<U+202E>b`");
    expect(code("abcdef", 3)).toBe("`abc…`");
    expect(code("x".repeat(200))).toBe(`\`${"x".repeat(120)}…\``);
  });
});

describe("cell: a code span inside a table", () => {
  it("escapes every pipe, so a value cannot end its cell", () => {
    expect(cell("a|b|c")).toBe("`a\\|b\\|c`");
  });

  it("is the code span otherwise, bound included", () => {
    expect(cell("a`b")).toBe("`aˋb`");
    expect(cell("abcdef", 3)).toBe("`abc…`");
    expect(cell("x".repeat(200))).toBe(`\`${"x".repeat(120)}…\``);
  });
});

describe("text: plain text with no Markdown or HTML left in it", () => {
  const punctuation = "!\"#$%&'()*+,-./:;<=>?[\\]^_{|}~";

  it("backslash-escapes every ASCII punctuation mark", () => {
    for (const c of punctuation) expect(text(`a${c}b`), JSON.stringify(c)).toBe(`a\\${c}b`);
  });

  it("leaves letters, digits and spaces alone", () => {
    const plain = "AZaz09 Mz ";
    expect(text(plain)).toBe(plain);
    expect(text("the quick brown fox 0123456789")).toBe("the quick brown fox 0123456789");
  });

  it("follows every @ with a zero-width space, so no mention is made", () => {
    expect(text("@admin and @ops")).toBe("@\u200badmin and @\u200bops");
  });

  it("turns a backtick into the look-alike rather than an escape", () => {
    expect(text("a`b`")).toBe("aˋbˋ");
  });

  it("answers (unnamed) for an empty string", () => {
    expect(text("")).toBe("(unnamed)");
  });

  it("escapes HTML and link syntax a hostile name carries", () => {
    expect(text("<img src=x>[a](b)")).toBe("\\<img src\\=x\\>\\[a\\]\\(b\\)");
  });

  it("neutralises and bounds what it shows before escaping", () => {
    expect(text("a\u202e\nb")).toBe("a\\<U\\+202E\\> b");
    expect(text("abcdef", 3)).toBe("abc…");
    expect(text("x".repeat(200))).toBe(`${"x".repeat(120)}…`);
  });
});
