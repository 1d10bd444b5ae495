/**
 * Config that is wrong, hostile or missing (issue 24): a key pasted into the wrong setting is
 * never quoted back; a preview with no key or no URL fails, naming both ways to set each; a
 * failure of the key or the URL is explained once per run, and points at `--run-program`
 * where a plain refresh would keep using the recorded config.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AuthenticationError, ConnectionError } from "../../src/core/client/errors";
import { GuardrailsClient } from "../../src/core/client/client";
import { configure, processConfig, resetConfiguration, resolveSettings } from "../../src/core/settings/config";
import { configProblems } from "../../src/dynamic/config-warnings";
import { UntrustedNotFoundError } from "../../src/core/client/errors";
import { confirmGone } from "../../src/core/confirm-gone";
import { explainAuthError, withKeySource } from "../../src/core/settings/key-source";
import { exportGuardrails } from "../../src/export/export";
import { hostileServer } from "../helpers/hostile-server";

afterEach(() => resetConfiguration());

const KEY = "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";
/** A key shaped like one, but not the configured one. */
const OTHER = "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";
const URL_OK = "http://127.0.0.1:1";

/** Every message must be free of both keys and of their shape. */
function expectNoKey(text: string): void {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(OTHER);
  expect(text).not.toContain("sk-or");
  expect(text).not.toContain(KEY.slice(10, 30));
}

describe("a key pasted into the wrong setting is never quoted", () => {
  it.each([
    ["GUARDRAILS_BASE_URL", { GUARDRAILS_API_KEY: KEY, GUARDRAILS_BASE_URL: KEY }, {}],
    ["GUARDRAILS_TIMEOUT_MS", { GUARDRAILS_API_KEY: KEY, GUARDRAILS_BASE_URL: URL_OK, GUARDRAILS_TIMEOUT_MS: KEY }, {}],
    ["guardrails:baseUrl", { GUARDRAILS_API_KEY: KEY }, { "guardrails:baseUrl": KEY }],
    ["guardrails:baseUrl", { GUARDRAILS_API_KEY: KEY }, { "guardrails:baseUrl": `https://api.example.com/${KEY}` }],
    ["guardrails:baseUrl", { GUARDRAILS_API_KEY: KEY }, { "guardrails:baseUrl": `${KEY}://api.example.com` }],
    [
      "guardrails:timeoutMs",
      {},
      { "guardrails:apiKey": KEY, "guardrails:baseUrl": URL_OK, "guardrails:timeoutMs": ` ${KEY} ` },
    ],
    [
      "guardrails:maxAttempts",
      { GUARDRAILS_API_KEY: "gr-short-configured-key" },
      { "guardrails:baseUrl": URL_OK, "guardrails:maxAttempts": OTHER },
    ],
  ])("at preview: %s", (setting, env, config) => {
    const { errors } = configProblems(config as Record<string, string>, () => true, env);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(setting.startsWith("GUARDRAILS") ? `the env var ${setting}` : setting);
    expectNoKey(errors.join("\n"));
  });

  it("a value holding the configured key, whatever its shape, is not quoted either", () => {
    const key = "e2e-key-qz81-17000";
    const { errors } = configProblems({ "guardrails:baseUrl": URL_OK, "guardrails:maxBulk": `${key}!` }, () => true, {
      GUARDRAILS_API_KEY: key,
    });
    expect(errors).toEqual([
      "guardrails:maxBulk must be a positive integer (got a value shaped like an API key, not shown; the key belongs in guardrails:apiKey or GUARDRAILS_API_KEY)",
    ]);
  });

  it("in the provider and in guardrails-export", async () => {
    configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": URL_OK, "guardrails:timeoutMs": KEY })[k]);
    expect(() => resolveSettings({})).toThrow(/guardrails:timeoutMs must be a positive integer/);
    expectNoKey(
      String(
        (() => {
          try {
            resolveSettings({});
          } catch (e) {
            return e;
          }
        })(),
      ),
    );
    resetConfiguration();
    configure((k) => ({ "guardrails:apiKey": KEY, "guardrails:baseUrl": KEY })[k]);
    expect(() => processConfig.client()).toThrow(/baseUrl must be an absolute URL/);
    expectNoKey(
      String(
        (() => {
          try {
            processConfig.client();
          } catch (e) {
            return e;
          }
        })(),
      ),
    );
    expect(() => new GuardrailsClient({ apiKey: KEY, baseUrl: `https://gw.example.com/${KEY}/` })).toThrow(
      /must not carry an API key/,
    );
    for (const env of [
      { GUARDRAILS_API_KEY: KEY, GUARDRAILS_BASE_URL: KEY },
      { GUARDRAILS_API_KEY: KEY, GUARDRAILS_BASE_URL: URL_OK, GUARDRAILS_MAX_ATTEMPTS: KEY },
    ]) {
      const saved = { ...process.env };
      Object.assign(process.env, env);
      const err = await exportGuardrails().then(
        () => undefined,
        (e: unknown) => e,
      );
      for (const k of Object.keys(env)) delete process.env[k];
      Object.assign(process.env, saved);
      expect(err).toBeInstanceOf(Error);
      expectNoKey(`${String(err)} ${(err as Error).stack}`);
    }
  });

  it("an ordinary bad value is still quoted", () => {
    const { errors } = configProblems(
      { "guardrails:apiKey": "k", "guardrails:baseUrl": "ftp://files.example.com", "guardrails:timeoutMs": "abc" },
      () => true,
      {},
    );
    expect(errors).toEqual([
      'guardrails:timeoutMs must be a positive integer (got "abc")',
      'guardrails:baseUrl: baseUrl must be an https URL (got protocol "ftp:")',
    ]);
  });
});

describe("a preview with no key or no URL fails, naming both ways to set each", () => {
  it.each([
    [{}, {}, ["guardrails:apiKey", "GUARDRAILS_API_KEY", "guardrails:baseUrl", "GUARDRAILS_BASE_URL"]],
    [
      { "guardrails:baseUrl": URL_OK },
      {},
      ["pulumi config set --secret guardrails:apiKey <key>", "the env var GUARDRAILS_API_KEY"],
    ],
    [
      {},
      { GUARDRAILS_API_KEY: "k" },
      ["pulumi config set guardrails:baseUrl <url>", "the env var GUARDRAILS_BASE_URL"],
    ],
    [
      { "guardrails:apiKey": "" },
      { GUARDRAILS_BASE_URL: URL_OK, GUARDRAILS_API_KEY: "" },
      ["guardrails:apiKey", "GUARDRAILS_API_KEY"],
    ],
  ])("config %j, env %j", (config, env, named) => {
    const { errors } = configProblems(config as Record<string, string>, () => true, env);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^pulumi-guardrails is not configured; set the /);
    for (const n of named) expect(errors[0]).toContain(n);
  });

  it("a key in the env and a URL in the stack config (or the other way round) is configured", () => {
    expect(configProblems({ "guardrails:baseUrl": URL_OK }, () => true, { GUARDRAILS_API_KEY: "k" }).errors).toEqual(
      [],
    );
    expect(configProblems({ "guardrails:apiKey": "k" }, () => true, { GUARDRAILS_BASE_URL: URL_OK }).errors).toEqual(
      [],
    );
  });
});

describe("a failure of the key or the URL is explained once per run", () => {
  const refused = (name: string) =>
    new AuthenticationError(401, "401 Unauthorized (check the API key)", {
      method: "GET",
      url: `${URL_OK}/api/v1/guardrails/${name}`,
      serverMessage: "missing, malformed or unknown API key; send Authorization: Bearer <key>",
    }).wrap(
      `guardrail "${name}": GET ${URL_OK}/api/v1/guardrails/${name}: 401 Unauthorized (check the API key): missing, malformed or unknown API key; send Authorization: Bearer <key>`,
    );

  it("a 401: the first names the key's source and the fix, every other one names its resource and points back", () => {
    configure((k) => ({ "guardrails:apiKey": "k", "guardrails:baseUrl": URL_OK })[k]);
    const messages = ["g0", "g1", "g2"].map((n) => (explainAuthError(refused(n)) as Error).message);
    expect(messages[0]).toContain("The service refused the API key from stack config guardrails:apiKey");
    expect(messages[0]).toContain("run `pulumi refresh --run-program` or `pulumi up`");
    expect(messages.slice(1)).toEqual(
      ["g1", "g2"].map(
        (n) =>
          `guardrail "${n}": GET ${URL_OK}/api/v1/guardrails/${n}: 401 Unauthorized: the API key was refused (the first error of this run says which key and what to do)`,
      ),
    );
    expect(messages.join("\n").split("missing, malformed").length - 1).toBe(1);
  });

  it("a URL that does not serve the API, from stack config: --run-program is named once, the other resources point back", async () => {
    const server = await hostileServer((_req, res) => void res.writeHead(404).end());
    try {
      configure((k) => ({ "guardrails:apiKey": "k", "guardrails:baseUrl": `${server.url}/v2` })[k]);
      const methods = withKeySource({
        read: async (id: string) => {
          const client = processConfig.client();
          const err = await client.getGuardrail(id).then(
            () => undefined,
            (e: unknown) => e,
          );
          await confirmGone(processConfig, err as never, { what: `guardrail "${id}"`, guardrailId: id });
        },
      });
      const errors = await Promise.all(
        ["a", "b"].map((id) =>
          methods.read(id).then(
            () => undefined,
            (e: unknown) => e as Error,
          ),
        ),
      );
      expect(errors.every((e) => e instanceof UntrustedNotFoundError)).toBe(true);
      const text = errors.map((e) => e!.message).join("\n");
      expect(text.split("--run-program").length - 1).toBe(1);
      expect(text).toContain(`Check guardrails:baseUrl, now "${server.url}/v2"`);
      // The two reads run at once: whichever fails first explains, the other points back to it.
      const short = errors.filter((e) =>
        e!.message.endsWith(
          "not reported as deleted, for the reason the first error of this run gives (check the service URL)",
        ),
      );
      expect(short).toHaveLength(1);
      expect(short[0]!.message).toMatch(/^guardrail "[ab]": /);
    } finally {
      await server.close();
    }
  });

  it("a connection refused names the URL's source and --run-program once", async () => {
    configure((k) => ({ "guardrails:apiKey": "k", "guardrails:baseUrl": "http://127.0.0.1:9" })[k]);
    const refusedConnection = () =>
      new ConnectionError("connection failed (ECONNREFUSED)", {
        method: "GET",
        url: "http://127.0.0.1:9/api/v1/guardrails/x",
        requestSent: false,
      });
    const methods = withKeySource({ read: async () => Promise.reject(refusedConnection()) });
    const [first, second] = [await methods.read().catch((e: Error) => e), await methods.read().catch((e: Error) => e)];
    expect(first.message).toContain('The service URL "http://127.0.0.1:9" comes from stack config guardrails:baseUrl');
    expect(first.message).toContain("run `pulumi refresh --run-program` or `pulumi up`");
    expect(second.message).toBe(
      "GET http://127.0.0.1:9/api/v1/guardrails/x: no connection (the first error of this run says which URL and what to do)",
    );
    expect(second).toBeInstanceOf(ConnectionError);
  });
});

describe("a URL is refused for a key, not for looking long", () => {
  it("a short configured key that happens to be a letter of the URL, and a UUID in a gateway path, are fine", () => {
    expect(
      new GuardrailsClient({
        apiKey: "k",
        baseUrl: "https://gw.example.com/tenants/3f2b8c1e-0000-4000-8000-000000000000",
      }),
    ).toBeInstanceOf(GuardrailsClient);
    expect(
      () =>
        new GuardrailsClient({
          apiKey: "gr-configured-key-0001",
          baseUrl: "https://gw.example.com/gr-configured-key-0001",
        }),
    ).toThrow(/must not carry an API key/);
  });
});
