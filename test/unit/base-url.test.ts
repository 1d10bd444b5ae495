/**
 * The base URL rules, one by one (issue 31: mutation testing found half of them changeable with
 * every test passing). The key travels to this URL in a header, so: https, or plain http to a
 * loopback host only; no credentials, query, fragment or key in the URL; no message quotes a
 * key; and a pasted `/api/v1` suffix is stripped rather than doubled.
 */
import { describe, expect, it } from "vitest";
import { checkBaseUrl } from "../../src/core/client/base-url";

const KEY = "sk-or-v1-0123456789abcdef0123";
const refused = (raw: string, keys: string[] = []): string => {
  try {
    checkBaseUrl(raw, keys);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`accepted ${raw}`);
};

describe("checkBaseUrl: where the key may travel", () => {
  it.each([
    ["http://localhost:8787", "http://localhost:8787"],
    ["http://LOCALHOST:8787/", "http://localhost:8787"],
    ["http://127.0.0.1:8787", "http://127.0.0.1:8787"],
    ["http://127.255.10.200/", "http://127.255.10.200"],
    ["http://[::1]:8787", "http://[::1]:8787"],
    ["https://api.example.com", "https://api.example.com"],
  ])("accepts %s as %s", (raw, want) => {
    expect(checkBaseUrl(raw, [])).toBe(want);
  });

  it.each([
    "http://api.example.com",
    "http://localhost.example.com",
    "http://my-localhost",
    "http://127.0.0.1.example.com",
    "http://128.0.0.1",
    "http://10.0.0.1",
    "http://[::2]",
  ])("refuses plain http to %s, a host that is not loopback", (raw) => {
    expect(refused(raw)).toBe(
      `baseUrl must use https unless the host is loopback (got http://${new URL(raw).host}); plain http would send the API key in clear text`,
    );
  });

  it("refuses another protocol, naming it", () => {
    expect(refused("ftp://api.example.com")).toBe('baseUrl must be an https URL (got protocol "ftp:")');
    expect(refused("file:///etc/passwd")).toBe('baseUrl must be an https URL (got protocol "file:")');
    expect(refused("ws://localhost:8787")).toBe('baseUrl must be an https URL (got protocol "ws:")');
  });

  // Issue 38: a key not shaped like the service's, pasted alone into baseUrl, was quoted whole.
  it("refuses a text that is not an absolute URL, describing it without quoting it", () => {
    expect(refused("api.example.com")).toBe(
      "baseUrl must be an absolute URL such as https://api.example.com (got a value that is not a URL: 15 characters, no scheme)",
    );
    expect(refused("correct-horse-battery-staple-management")).toBe(
      "baseUrl must be an absolute URL such as https://api.example.com (got a value that is not a URL: 39 characters, no scheme)",
    );
    expect(refused("https://exa mple.com")).toBe(
      "baseUrl must be an absolute URL such as https://api.example.com (got a value that is not a URL: 20 characters, a scheme but no valid address after it, with spaces)",
    );
  });
});

describe("checkBaseUrl: nothing secret in the URL", () => {
  it("refuses credentials, user or password alone", () => {
    const want = "baseUrl must not carry credentials; set the API key with guardrails:apiKey";
    expect(refused("https://user@api.example.com")).toBe(want);
    expect(refused("https://:pw@api.example.com")).toBe(want);
  });

  it("refuses a query or a fragment, quoting neither", () => {
    expect(refused("https://api.example.com/gw?x=1")).toBe(
      'baseUrl must not carry a query or fragment (got "https://api.example.com/gw?…")',
    );
    expect(refused("https://api.example.com/gw#frag")).toBe(
      'baseUrl must not carry a query or fragment (got "https://api.example.com/gw#…")',
    );
    expect(refused("https://api.example.com/?q=1#f")).toBe(
      'baseUrl must not carry a query or fragment (got "https://api.example.com/?…#…")',
    );
  });

  it("refuses a URL holding the configured key or a service-shaped key, quoting neither", () => {
    const want =
      "baseUrl must not carry an API key (it holds one, not shown); set the key with guardrails:apiKey or GUARDRAILS_API_KEY";
    expect(refused("https://api.example.com/abcd1234", ["abcd1234"])).toBe(want);
    expect(refused(`https://api.example.com/${KEY}`)).toBe(want);
    expect(checkBaseUrl("https://api.example.com/abcd1234", ["other-key"])).toBe("https://api.example.com/abcd1234");
  });

  it("describes rather than quotes a key-shaped value in every message", () => {
    const shaped = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7";
    for (const raw of [
      `not a url ${shaped}`,
      `http://${shaped}.example.com`,
      `${shaped}://x`,
      `https://x/${shaped}?q=1`,
    ]) {
      const message = refused(raw);
      expect(message, raw).not.toContain(shaped);
      expect(message, raw).toContain("a value shaped like an API key, not shown");
    }
  });
});

describe("checkBaseUrl: the path the client prefixes to /api/v1", () => {
  it.each([
    ["https://api.example.com/api/v1", "https://api.example.com"],
    ["https://api.example.com/API/V1//", "https://api.example.com"],
    ["https://api.example.com/gw/api/v1", "https://api.example.com/gw"],
    ["https://api.example.com/gw///", "https://api.example.com/gw"],
    ["https://api.example.com/api/v1x", "https://api.example.com/api/v1x"],
    ["https://api.example.com/api/v1/extra", "https://api.example.com/api/v1/extra"],
    ["https://api.example.com/api/v10", "https://api.example.com/api/v10"],
    ["http://127.0.0.1:8787/api/v1/", "http://127.0.0.1:8787"],
  ])("%s -> %s", (raw, want) => {
    expect(checkBaseUrl(raw, [])).toBe(want);
  });
});
