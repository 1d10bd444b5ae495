/**
 * `withoutIds` (core/text/without-ids.ts): a secret set's ids are gone from a message in
 * every form a server may echo them in (issue 38 attack pass: upper case, `\u` escapes,
 * percent-encoding, split by blanks or zero-width characters), and nothing else is touched.
 */
import { describe, expect, it } from "vitest";
import { withoutIds } from "../../src/core/text/without-ids";

const ID = "user_secretghost91";
const uesc = (t: string) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
const xesc = (t: string) => [...t].map((c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase()}`).join("");
const pct = (t: string) => [...Buffer.from(t)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

describe("withoutIds: a secret id in any form a server echoes", () => {
  it.each([
    ["as sent", ID],
    ["upper case", ID.toUpperCase()],
    ["mixed case", "User_SecretGhost91"],
    ["\\u escapes", uesc(ID)],
    ["\\u escapes, upper-case hex", uesc(ID).toUpperCase().replaceAll("\\U", "\\u")],
    ["\\x escapes", xesc(ID)],
    ["one character percent-encoded", ID.replaceAll("_", "%5F")],
    ["every byte percent-encoded", pct(ID)],
    ["decimal HTML entities", [...ID].map((c) => `&#${c.charCodeAt(0)};`).join("")],
    ["split by blanks", [...ID].join(" ")],
    ["split by zero-width spaces", [...ID].join("\u200b")],
  ])("%s: replaced, the text around kept", (_form, echoed) => {
    expect(withoutIds(`member "${echoed}" is not in the organization`, [ID, "user_0801"])).toBe(
      'member "[secret]" is not in the organization',
    );
  });

  it("replaces every occurrence of every id, longest first, and keeps a text naming none as it was", () => {
    expect(withoutIds("a user_ab, USER_A and user_ab", ["user_a", "user_ab"])).toBe(
      "a [secret], [secret] and [secret]",
    );
    const plain = "members not in the organization: user_0802 (\\u0041 %41)";
    expect(withoutIds(plain, [ID, "user_0801"])).toBe(plain);
    expect(withoutIds(plain, ["", ""])).toBe(plain);
  });
});
