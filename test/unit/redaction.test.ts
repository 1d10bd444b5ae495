/**
 * Redaction, proven at the unit level (issue 31): the key is removed in every form a server can
 * echo it in, what an error keeps of a server's text is cut and bounded, control characters never
 * reach a terminal, and a hostile value cannot nest or grow past its bounds. Before this file,
 * mutation testing showed these held only because end-to-end attacks happened to reach them.
 */
import { describe, expect, it } from "vitest";
import {
  holdsConfiguredKey,
  holdsKey,
  redact,
  redactCause,
  redactUrl,
  redactValue,
  SERVER_MESSAGE_MAX,
  serverText,
  shownSetting,
} from "../../src/core/client/redaction";

const KEY = "sk-or-v1-0123456789abcdef";

describe("redact: the key in every form a server echoes", () => {
  it("removes the key as sent, URL-encoded and JSON-escaped, every occurrence", () => {
    const odd = 'k"ey/+&=1';
    expect(redact(`a ${odd} b ${odd}`, odd)).toBe("a [REDACTED] b [REDACTED]");
    expect(redact(`q=${encodeURIComponent(odd)}`, odd)).toBe("q=[REDACTED]");
    expect(redact(`{"m":"${JSON.stringify(odd).slice(1, -1)}"}`, odd)).toBe('{"m":"[REDACTED]"}');
  });

  it("leaves text alone without a key or with one too short to match safely (under 4 characters)", () => {
    expect(redact("abc abcd", undefined)).toBe("abc abcd");
    expect(redact("abc abcd", "")).toBe("abc abcd");
    expect(redact("abc abcd", "abc")).toBe("abc abcd");
    expect(redact("abc abcd", "abcd")).toBe("abc [REDACTED]");
  });
});

// Issue 38: a server that echoed the Authorization header in another form got it to the CLI.
describe("redact: the key in the other forms a server may echo (issue 38)", () => {
  const b64 = (t: string) => Buffer.from(t).toString("base64");
  const b64url = (t: string) => Buffer.from(t).toString("base64url");
  const percentAll = (t: string, upper: boolean) =>
    [...Buffer.from(t)]
      .map((b) => `%${b.toString(16).padStart(2, "0")[upper ? "toUpperCase" : "toLowerCase"]()}`)
      .join("");
  const entities = (t: string) => [...t].map((c) => `&#${c.charCodeAt(0)};`).join("");
  const hexEntities = (t: string) => [...t].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join("");
  const split = (t: string, sep: string) => [...t].join(sep);
  const forms: Array<[string, string]> = [
    ["base64 of the key", b64(KEY)],
    ["base64 of Bearer <key>", b64(`Bearer ${KEY}`)],
    ["base64 of the whole header line", b64(`Authorization: Bearer ${KEY}`)],
    ["base64 at the other alignment", b64(`xAuthorization: Bearer ${KEY}\n`)],
    ["base64url of Bearer <key>", b64url(`Bearer ${KEY}`)],
    ["base64 broken into lines", b64(`Bearer ${KEY}`).replace(/(.{8})/g, "$1\n")],
    ["every byte percent-encoded, upper hex", percentAll(KEY, true)],
    ["every byte percent-encoded, lower hex", percentAll(KEY, false)],
    ["decimal HTML entities", entities(KEY)],
    ["hex HTML entities", hexEntities(KEY)],
    ["named HTML entities for - and _", KEY.replaceAll("-", "&hyphen;")],
    ["upper case", KEY.toUpperCase()],
    ["upper case, Bearer", `BEARER ${KEY.toUpperCase()}`],
    ["split by zero-width spaces", split(KEY, "\u200b")],
    ["split by zero-width joiners and word joiners", split(KEY, "\u200d\u2060")],
    ["split by soft hyphens", split(KEY, "\u00ad")],
    ["split by bidi marks", split(KEY, "\u200e")],
  ];
  it.each(forms)("%s: the key is gone, or the text is withheld", (_form, echoed) => {
    const out = redact(`invalid header: ${echoed} (rejected)`, KEY);
    expect(out).toMatch(/\[REDACTED/);
    // Nothing of the key survives in any form: every check that found it before finds nothing now.
    expect(redact(out, KEY)).toBe(out);
    expect(out.toLowerCase()).not.toContain(KEY.toLowerCase());
    expect(out).not.toContain(b64(KEY).slice(4, 20));
  });

  it("keeps a text with no form of the key as it was, and serverText strips what is left", () => {
    const plain = "guardrail 3f2b8c1e not found &amp; no such member: user_bob";
    expect(redact(plain, KEY)).toBe(plain);
    expect(serverText(`bad key ${split(KEY, "\u200b")}`, KEY)).not.toMatch(/0123456789/);
  });
});

describe("redactUrl", () => {
  it("drops userinfo and masks secret-named query values only, names matched whole and in any case", () => {
    const out = redactUrl("https://user:pw@api.example.com/x?API_KEY=1&access-token=2&Sig=3&keyboard=4&page=5");
    expect(out).toBe("https://api.example.com/x?API_KEY=REDACTED&access-token=REDACTED&Sig=REDACTED&keyboard=4&page=5");
  });

  it.each([
    "key",
    "apikey",
    "api-key",
    "API_KEY",
    "token",
    "accesstoken",
    "access_token",
    "secret",
    "password",
    "auth",
    "Authorization",
    "signature",
    "sig",
  ])("masks the query value named %s", (name) => {
    expect(redactUrl(`https://h/?${name}=v1&${name}x=v2&x${name}=v3`)).toBe(
      `https://h/?${name}=REDACTED&${name}x=v2&x${name}=v3`,
    );
  });

  it("says an unparseable URL is one, quoting nothing of it", () => {
    expect(redactUrl(`not a url ${KEY}`)).toBe("[unparseable URL]");
  });
});

describe("serverText: a server's text as an error may repeat it", () => {
  it("cuts past the bound, saying how much was cut; text at the bound is kept whole", () => {
    const long = "x".repeat(SERVER_MESSAGE_MAX + 7);
    expect(serverText(long, KEY)).toBe(`${"x".repeat(SERVER_MESSAGE_MAX)}… (7 more characters)`);
    expect(serverText("y".repeat(SERVER_MESSAGE_MAX), KEY)).toBe("y".repeat(SERVER_MESSAGE_MAX));
    expect(serverText("abcdef", KEY, 3)).toBe("abc… (3 more characters)");
  });

  it("blanks control characters (ANSI escapes, newlines, NUL) and trims", () => {
    expect(serverText("\n bad\u001b[31mred\u0000\r\nline\u009b ", KEY)).toBe("bad [31mred line");
  });

  it("removes the key before cutting, so no part of it straddles the cut", () => {
    const text = `${"a".repeat(8)}${KEY}tail`;
    const out = serverText(text, KEY, 12);
    expect(out).toBe("aaaaaaaa[RED… (10 more characters)");
    expect(out).not.toContain(KEY.slice(0, 4));
  });
});

describe("redactValue: a server's metadata, copied and bounded", () => {
  it("removes the key from every string, object keys included, and keeps other scalars", () => {
    const value = { [KEY]: [KEY, 1, true, null], n: 2, s: `x ${KEY}` };
    expect(redactValue(value, KEY)).toEqual({ "[REDACTED]": ["[REDACTED]", 1, true, null], n: 2, s: "x [REDACTED]" });
  });

  it("bounds strings (1000 characters) and object keys (200), and blanks their controls", () => {
    const out = redactValue({ ["k".repeat(250)]: "v".repeat(1005), "a\nb": "c\u001bd" }, KEY) as Record<string, string>;
    expect(out).toEqual({
      [`${"k".repeat(200)}… (50 more characters)`]: `${"v".repeat(1000)}… (5 more characters)`,
      "a b": "c d",
    });
  });

  it("keeps at most 50 items of an array and 50 entries of an object", () => {
    const many = Array.from({ length: 60 }, (_, i) => i);
    expect(redactValue(many, KEY)).toEqual(many.slice(0, 50));
    const wide = Object.fromEntries(many.map((i) => [`k${i}`, i]));
    expect(Object.keys(redactValue(wide, KEY) as object)).toEqual(many.slice(0, 50).map((i) => `k${i}`));
  });

  it("stops at depth 6: deeper values are replaced, the levels above kept", () => {
    const nest = (n: number): unknown => (n === 0 ? "leaf" : { d: nest(n - 1) });
    expect(redactValue(nest(6), KEY)).toEqual(nest(6));
    expect(redactValue(nest(7), KEY)).toEqual({ d: { d: { d: { d: { d: { d: "[nested too deep]" } } } } } });
    expect(redactValue([[[[[[["x"]]]]]]], KEY)).toEqual([[[[[["[nested too deep]"]]]]]]);
  });
});

describe("redactCause: an error chain kept as `cause`", () => {
  it("copies name, code and message of each link with the key removed, and a stack that quotes only those", () => {
    const inner = Object.assign(new Error(`socket said ${KEY}`), { code: "ECONNRESET", secretField: KEY });
    const outer = Object.assign(new TypeError(`fetch failed\n${KEY}`, { cause: inner }), { code: 7 });
    const copy = redactCause(outer, KEY) as Error & { code?: string; cause?: Error & { code?: string } };
    expect(copy).not.toBe(outer);
    expect(copy.name).toBe("TypeError");
    expect(copy.message).toBe("fetch failed [REDACTED]");
    expect(copy.code).toBeUndefined();
    expect(copy.stack).toBe("TypeError: fetch failed [REDACTED]");
    expect(copy.cause?.message).toBe("socket said [REDACTED]");
    expect(copy.cause?.code).toBe("ECONNRESET");
    expect(copy.cause?.stack).toBe("Error: socket said [REDACTED]");
    expect(JSON.stringify(copy.cause)).not.toContain(KEY);
    expect(copy.cause?.cause).toBeUndefined();
  });

  it("takes a non-Error as its text, an unnamed link as Error, and bounds name and code", () => {
    expect(redactCause(`thrown ${KEY}`, KEY)?.message).toBe("thrown [REDACTED]");
    const odd = redactCause({ message: 5, name: 3, code: `c${"x".repeat(200)}` }, KEY) as Error & { code: string };
    expect(odd.message).toBe("[object Object]");
    expect(odd.name).toBe("Error");
    expect(odd.code).toBe(`c${"x".repeat(99)}… (101 more characters)`);
  });

  it("nothing for no cause, and a chain cut after 6 links (a cyclic cause ends)", () => {
    expect(redactCause(undefined, KEY)).toBeUndefined();
    expect(redactCause(null, KEY)).toBeUndefined();
    const cyclic = new Error("loop") as Error & { cause?: unknown };
    cyclic.cause = cyclic;
    let links = 0;
    for (let e: unknown = redactCause(cyclic, KEY); e; e = (e as Error).cause) links++;
    expect(links).toBe(6);
  });
});

describe("holdsKey, holdsConfiguredKey and shownSetting: no message quotes a key", () => {
  it("finds the configured key in any encoded form, and a service-shaped key without one", () => {
    expect(holdsConfiguredKey("x abcd y", ["abcd"])).toBe(true);
    expect(holdsConfiguredKey("x abc y", ["abc"])).toBe(false);
    expect(holdsConfiguredKey("x y", [undefined, "zzzz"])).toBe(false);
    expect(holdsConfiguredKey("host sk-0123456789abcdef0", [])).toBe(true);
    expect(holdsConfiguredKey("host sk-0123456789abcde", [])).toBe(false);
  });

  it("holdsKey also takes anything shaped like a key: sk- with 8 more, or 32 letters and digits mixed", () => {
    expect(holdsKey("a sk-abcdefgh b")).toBe(true);
    expect(holdsKey("a sk-abcdefg b")).toBe(false);
    expect(holdsKey(`a ${"ab12".repeat(8)} b`)).toBe(true);
    expect(holdsKey(`a ${"ab12".repeat(8).slice(1)} b`)).toBe(false);
    expect(holdsKey(`a ${"x".repeat(40)} b`)).toBe(false);
    expect(holdsKey(`a ${"1".repeat(40)} b`)).toBe(false);
    expect(holdsKey("short", ["hort"])).toBe(true);
  });

  it("shownSetting quotes and cuts a plain value, and describes a key-shaped one without quoting it", () => {
    expect(shownSetting("abc", [])).toBe('"abc"');
    expect(shownSetting("abcdef", [], 3)).toBe('"abc…"');
    expect(shownSetting("abc", [], 3)).toBe('"abc"');
    expect(shownSetting("z".repeat(101), [])).toBe(JSON.stringify(`${"z".repeat(100)}…`));
    const shown = shownSetting(`https://x/${KEY}`, []);
    expect(shown).not.toContain("sk-");
    expect(shown).toMatch(/^a value shaped like an API key, not shown/);
  });
});
