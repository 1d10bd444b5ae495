/** The native face's provider config: CheckConfig's failures and warnings, the key kept secret, Configure. */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { processBudget } from "../../src/core/client/budget";
import { ProviderConfig, resetConfiguration } from "../../src/core/settings/config";
import { checkConfigResponse, configFailures, configureOnce, diffConfigResponse } from "../../src/native/config";

const KEY = "sk-or-v1-0123456789abcdef0123456789abcdef";
const URL_OK = "http://127.0.0.1:9";
const SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const realError = console.error;
let said: string[] = [];
const saved = { ...process.env };
/** The plugin of the test: one provider instance, its config and its `Configure`. */
let config = new ProviderConfig();
let configureResponse = configureOnce(config);

beforeEach(() => {
  said = [];
  console.error = (...a: unknown[]) => void said.push(a.join(" "));
  for (const k of Object.keys(process.env)) if (k.startsWith("GUARDRAILS_")) delete process.env[k];
});
afterEach(() => {
  console.error = realError;
  Object.assign(process.env, saved);
  resetConfiguration();
  // Each test is a fresh plugin process: configured once (test/provider/native-configure-once.test.ts).
  config.reset();
  config = new ProviderConfig();
  configureResponse = configureOnce(config);
});

const check = (news: Record<string, unknown>) =>
  checkConfigResponse(new provproto.CheckRequest().setNews(Struct.fromJavaScript(news as never)));

describe("CheckConfig", () => {
  it("fails on a missing key and URL, naming both ways to set each", () => {
    const failures = check({ version: "0.3.0" })
      .getFailuresList()
      .map((f) => [f.getProperty(), f.getReason()]);
    // No property: the engine would print `value {<nil>}` beside a setting set nowhere (issue 38).
    expect(failures).toEqual([
      [
        "",
        "pulumi-guardrails is not configured; set the API key: `pulumi config set --secret guardrails:apiKey <key>` or the env var GUARDRAILS_API_KEY",
      ],
      [
        "",
        "pulumi-guardrails is not configured; set the service URL: `pulumi config set guardrails:baseUrl <url>` or the env var GUARDRAILS_BASE_URL",
      ],
    ]);
    expect(configFailures({}, { GUARDRAILS_API_KEY: KEY, GUARDRAILS_BASE_URL: URL_OK })).toEqual([]);
  });

  it("fails on a malformed URL, key or number, never quoting the key, nor its value to the engine", () => {
    // Every failure goes with no property ("") and the setting's name leading the reason: the
    // engine prints a failure's property with its value from the inputs, `{<nil>}` when unset.
    const cases: [Record<string, string>, Record<string, string>, string, RegExp][] = [
      [{ apiKey: KEY, baseUrl: KEY }, {}, "", /^guardrails:baseUrl: baseUrl must be an absolute URL/],
      [{ apiKey: KEY, baseUrl: `https://gw.example.com/${KEY}` }, {}, "", /must not carry an API key/],
      [
        { baseUrl: "http://gw.example.com" },
        { GUARDRAILS_API_KEY: KEY },
        "",
        /must use https unless the host is loopback/,
      ],
      [{ apiKey: `${KEY}\n`, baseUrl: URL_OK }, {}, "", /^guardrails:apiKey holds a blank, a line break/],
      [{ baseUrl: URL_OK }, { GUARDRAILS_API_KEY: `Bearer ${KEY}` }, "", /^the env var GUARDRAILS_API_KEY holds a/],
      [{ apiKey: "https://gw.example.com", baseUrl: URL_OK }, {}, "", /guardrails:apiKey is a URL, not a key/],
      [{ apiKey: KEY, baseUrl: URL_OK, maxAttempts: KEY }, {}, "", /^guardrails:maxAttempts must be a posi/],
      [
        { apiKey: KEY, baseUrl: URL_OK, maxConcurrency: "17" },
        {},
        "",
        /^guardrails:maxConcurrency must be an integer from 1 to 16 \(got "17"\)$/,
      ],
      [
        { apiKey: KEY, baseUrl: URL_OK },
        { GUARDRAILS_MAX_CONCURRENCY: "0" },
        "",
        /^the env var GUARDRAILS_MAX_CONCURRENCY must be an integer from 1 to 16 \(got "0"\)$/,
      ],
    ];
    for (const [config, env, property, reason] of cases) {
      const failures = configFailures(config, env);
      expect(failures, JSON.stringify(config)).toHaveLength(1);
      expect(failures[0]!.reason).toMatch(reason);
      expect(failures[0]!.property).toBe(property);
      expect(JSON.stringify(failures)).not.toContain("0123456789abcdef");
    }
  });

  it("warns on unknown keys and passes the inputs on as the engine sent them", () => {
    const resp = check({ apiKey: KEY, baseUrl: URL_OK, maxAtempts: "3" });
    expect(resp.getFailuresList()).toEqual([]);
    expect(resp.getInputs()!.toJavaScript()).toEqual({ apiKey: KEY, baseUrl: URL_OK, maxAtempts: "3" });
    expect(said).toEqual([
      "pulumi-guardrails: unknown config key guardrails:maxAtempts is ignored; did you mean guardrails:maxAttempts?",
    ]);
  });
});

describe("Configure and DiffConfig", () => {
  it("Configure warns once on a key the engine sends unmarked (set without --secret), never quoting it", () => {
    const configureWith = (apiKey: unknown) =>
      configureResponse(
        new provproto.ConfigureRequest().setArgs(Struct.fromJavaScript({ apiKey, baseUrl: URL_OK } as never)),
      );
    configureWith({ ...SIG, value: KEY });
    expect(said).toEqual([]);
    configureWith(KEY);
    configureWith(KEY);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /^pulumi-guardrails: guardrails:apiKey is plain text: .*pulumi config set --secret guardrails:apiKey/,
    );
    expect(said[0]).not.toContain(KEY);
  });

  it("hand the config to the provider instance's settings, the tuning settings included", () => {
    const args = Struct.fromJavaScript({
      apiKey: { ...SIG, value: KEY },
      baseUrl: URL_OK,
      maxAttempts: "2",
      timeoutMs: 900,
      maxConcurrency: 7,
    });
    configureResponse(new provproto.ConfigureRequest().setArgs(args));
    expect(config.settings({})).toMatchObject({
      apiKey: KEY,
      baseUrl: URL_OK,
      maxAttempts: 2,
      timeoutMs: 900,
      maxConcurrency: 7,
    });
    // The process's one budget takes it with the first client.
    config.client();
    expect(processBudget.limit).toBe(7);
  });

  it("updates the provider in place on a changed setting, ignoring the engine's version", () => {
    const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => {
      const resp = diffConfigResponse(
        new provproto.DiffRequest()
          .setOldInputs(Struct.fromJavaScript(olds as never))
          .setNews(Struct.fromJavaScript(news as never)),
      );
      return [resp.getChanges(), resp.getDiffsList()];
    };
    const { DIFF_NONE, DIFF_SOME } = provproto.DiffResponse.DiffChanges;
    expect(diff({ baseUrl: URL_OK, version: "1" }, { baseUrl: URL_OK, version: "2" })).toEqual([DIFF_NONE, []]);
    expect(diff({ apiKey: { ...SIG, value: "a" } }, { apiKey: { ...SIG, value: "b" } })).toEqual([
      DIFF_SOME,
      ["apiKey"],
    ]);
  });
});
