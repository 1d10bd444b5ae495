/** Config that tells the truth: plain key, unknown keys, bad numbers, the 401's key source. */
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError } from "../../src/core/client/errors";
import { configure, resetConfiguration, resolveSettings } from "../../src/core/settings/config";
import { configProblems } from "../../src/dynamic/config-warnings";
import { explainAuthError } from "../../src/core/settings/key-source";

afterEach(() => resetConfiguration());

describe("configProblems", () => {
  it("warns on a plain-text key and on unknown keys, with did-you-mean", () => {
    const report = configProblems(
      { "guardrails:apiKey": "k", "guardrails:maxAtempts": "3", "guardrails:colour": "x", "aws:region": "eu" },
      () => false,
      { GUARDRAILS_BASE_URL: "http://127.0.0.1:1" },
    );
    expect(report.errors).toEqual([]);
    expect(report.warnings).toMatchInlineSnapshot(`
      [
        "unknown config key guardrails:colour is ignored; pulumi-guardrails reads guardrails:apiKey, guardrails:baseUrl, guardrails:maxAttempts, guardrails:timeoutMs, guardrails:maxBulk, guardrails:maxConcurrency, guardrails:skipCredentialsCheck, guardrails:movesLookup",
        "unknown config key guardrails:maxAtempts is ignored; did you mean guardrails:maxAttempts?",
        "guardrails:apiKey is plain text: it is stored unencrypted in Pulumi.<stack>.yaml, in the state (as an input of the default pulumi-nodejs provider), in \`pulumi stack export\` and in \`pulumi preview --json\`. Make it a secret with \`pulumi config set --secret guardrails:apiKey <key>\`, or better, \`pulumi config rm guardrails:apiKey\` and set GUARDRAILS_API_KEY in the environment",
      ]
    `);
  });

  // Issue 38: a key pasted as a config key's name was echoed in the warning.
  it("never echoes an unknown key name shaped like a key, or one too long or odd to be a name", () => {
    const report = configProblems(
      {
        "guardrails:sk-or-v1-0123456789abcdef0123456789": "x",
        "guardrails:correct-horse-battery-staple-management-extra": "x",
        "guardrails:a\u001b[31mb": "x",
      },
      () => true,
      { GUARDRAILS_BASE_URL: "http://127.0.0.1:1" },
    );
    expect(report.warnings).toHaveLength(3);
    for (const w of report.warnings) {
      expect(w).toMatch(/^an unknown guardrails:\* config key \(not shown: .*\) is ignored; /);
      expect(w).not.toMatch(/sk-or|0123456789|horse|\u001b/);
    }
  });

  // Issue 38 attack pass: a short key of another service (no `sk-`, under 32 characters) pasted
  // as the name was echoed; a name is quoted only when shaped like a setting's name.
  it("quotes an unknown name only when shaped like a setting's name, describing any other", () => {
    const names = [
      "re_8Hq2LmZ9xT4vN7bK3cW5pR1y",
      "Zx8k2PqR7mNv4Lw9Ty3Hb6Jc",
      "x9y8z7",
      "a1b2c3d4",
      "ZxkPqRmNvLwTyHbJc",
    ];
    const report = configProblems(Object.fromEntries(names.map((n) => [`guardrails:${n}`, "x"])), () => true, {
      GUARDRAILS_BASE_URL: "http://127.0.0.1:1",
    });
    expect(report.warnings).toHaveLength(names.length);
    for (const w of report.warnings) {
      expect(w).toMatch(
        /^an unknown guardrails:\* config key \(not shown: \d+ characters, not shaped like a setting's name: letters in words, with no digits mixed in and no run of short humps\) is ignored; /,
      );
      for (const n of names) expect(w).not.toContain(n.slice(2, 8));
    }
    const shaped = [
      "colour",
      "maxAtempts",
      "retryMs",
      "apiKeyId",
      "base_url",
      "api-key",
      "BASE_URL",
      "baseURL",
      "maxBulk2",
      "x",
    ];
    const quoted = configProblems(Object.fromEntries(shaped.map((n) => [`guardrails:${n}`, "x"])), () => true, {
      GUARDRAILS_BASE_URL: "http://127.0.0.1:1",
    });
    expect(quoted.warnings.map((w) => /^unknown config key guardrails:(\S+) is ignored/.exec(w)?.[1]).sort()).toEqual(
      [...shaped].sort(),
    );
    // The did-you-mean still answers a near-miss, shown or not.
    expect(quoted.warnings).toContain(
      "unknown config key guardrails:base_url is ignored; did you mean guardrails:baseUrl?",
    );
  });

  it("a secret key and known keys are quiet", () => {
    expect(
      configProblems(
        { "guardrails:apiKey": "k", "guardrails:maxBulk": "100", "guardrails:baseUrl": "http://127.0.0.1:1/api/v1" },
        () => true,
        {},
      ),
    ).toEqual({ warnings: [], errors: [] });
  });

  it("bad numbers quote the text that was given and name where it came from", () => {
    const report = configProblems(
      {
        "guardrails:apiKey": "k",
        "guardrails:baseUrl": "http://127.0.0.1:1",
        "guardrails:timeoutMs": "abc",
        "guardrails:maxBulk": "0",
        "guardrails:maxConcurrency": "64",
      },
      () => true,
      { GUARDRAILS_MAX_ATTEMPTS: "2.5" },
    );
    expect(report.errors).toMatchInlineSnapshot(`
      [
        "the env var GUARDRAILS_MAX_ATTEMPTS must be a positive integer (got "2.5")",
        "guardrails:timeoutMs must be a positive integer (got "abc")",
        "guardrails:maxBulk must be a positive integer (got "0")",
        "guardrails:maxConcurrency must be an integer from 1 to 16 (got "64")",
      ]
    `);
  });
});

describe("the provider's settings", () => {
  it("a bad number fails with the text given, never NaN", () => {
    configure(
      (k) =>
        ({ "guardrails:apiKey": "k", "guardrails:baseUrl": "http://127.0.0.1:1", "guardrails:timeoutMs": "abc" })[k],
    );
    expect(() => resolveSettings({})).toThrowErrorMatchingInlineSnapshot(
      `[UserError: guardrails:timeoutMs must be a positive integer (got "abc")]`,
    );
  });

  it("a 401 names the key's source", () => {
    const refused = new AuthenticationError(401, "401 Unauthorized (check the API key)", {
      method: "GET",
      url: "http://127.0.0.1:1/api/v1/guardrails/x",
    });
    configure((k) => ({ "guardrails:apiKey": "k", "guardrails:baseUrl": "http://127.0.0.1:1" })[k]);
    const fromConfig = explainAuthError(refused) as AuthenticationError;
    expect(fromConfig).toBeInstanceOf(AuthenticationError);
    expect(fromConfig.cause).toBe(refused);
    expect(fromConfig.message).toMatchInlineSnapshot(
      `"GET http://127.0.0.1:1/api/v1/guardrails/x: 401 Unauthorized (check the API key). The service refused the API key from stack config guardrails:apiKey; \`pulumi refresh\` and \`pulumi destroy\` use the config recorded at the last \`pulumi up\`; after correcting the key, run \`pulumi refresh --run-program\` or \`pulumi up\`"`,
    );
    resetConfiguration();
    const saved = { k: process.env.GUARDRAILS_API_KEY, u: process.env.GUARDRAILS_BASE_URL };
    process.env.GUARDRAILS_API_KEY = "k";
    process.env.GUARDRAILS_BASE_URL = "http://127.0.0.1:1";
    try {
      expect((explainAuthError(refused) as Error).message).toContain(
        "The service refused the API key from the env var GUARDRAILS_API_KEY; check the key in that variable",
      );
    } finally {
      for (const [name, v] of [
        ["GUARDRAILS_API_KEY", saved.k],
        ["GUARDRAILS_BASE_URL", saved.u],
      ] as const) {
        if (v === undefined) delete process.env[name];
        else process.env[name] = v;
      }
    }
  });
});
