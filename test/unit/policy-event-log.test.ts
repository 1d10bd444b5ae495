/** The PR summary's policy section, from the engine's event log (hostile input included). */
import { describe, expect, it } from "vitest";
import { policySection, readPolicyEvents } from "../../src/preview/policy-events";

const ev = (urnName: string, policyName: string, level: string, message: string) =>
  JSON.stringify({
    sequence: 1,
    timestamp: 1,
    policyEvent: {
      resourceUrn: `urn:pulumi:dev::p::pulumi-nodejs:dynamic/guardrails:Guardrail::${urnName}`,
      message,
      color: "never",
      policyName,
      policyPackName: "org",
      policyPackVersion: "0.0.1",
      enforcementLevel: level,
    },
  });

describe("policySection", () => {
  it("lists mandatory before advisory, whatever the log's order, once each", () => {
    const log = [
      JSON.stringify({ sequence: 0, timestamp: 1, policyLoadEvent: {} }),
      ev("b", "guardrails-forbid-models", "advisory", 'desc\nguardrail "b": warn'),
      ev("a", "guardrails-max-limit-usd", "mandatory", 'desc\nguardrail "a": over'),
      ev("a", "guardrails-max-limit-usd", "mandatory", 'desc\nguardrail "a": over'),
    ].join("\n");
    const md = policySection(readPolicyEvents(log));
    expect(md).toMatch(/^\*\*Policies: 1 mandatory violation\(s\) \(block the merge\) · 1 advisory\*\*/);
    expect(md.indexOf("**mandatory**")).toBeLessThan(md.indexOf("**advisory**"));
    expect(md.match(/max-limit/g)).toHaveLength(1);
  });

  it("never claims a pass when no pack ran, and says what it could not read", () => {
    expect(policySection(readPolicyEvents(""))).toMatch(/no policy pack ran/);
    expect(policySection(readPolicyEvents(`${JSON.stringify({ policyAnalyzeSummaryEvent: {} })}\nnot json\n[1]`))).toBe(
      "**Policies: no violations.** (2 line(s) of the event log were not JSON events and were skipped)\n",
    );
  });

  it("neutralises every string: no heading, HTML, mention, link or code-span breakout", () => {
    const hostile = "x\n# Approved\n<img src=x onerror=alert(1)> @org/admins [click](http://evil) `` ` ``";
    const log = ev(hostile, hostile, "mandatory", `desc\n${hostile}`);
    const md = policySection(readPolicyEvents(log));
    // Inside a code span nothing is parsed; outside one, nothing live may remain.
    const outside = md.replace(/`[^`]*`/g, "");
    expect(md).not.toMatch(/\n# Approved/);
    expect(outside).not.toMatch(/(?<!\\)<img/);
    expect(outside).not.toMatch(/@org/);
    expect(outside).not.toContain("](http");
    for (const line of md.split("\n").filter((l) => l.startsWith("- ")))
      expect(line.split("`").length % 2, line).toBe(1);
  });

  it("strips CrossGuard's prefix from a 'checked at up' advisory", () => {
    const md = policySection(
      readPolicyEvents(
        ev(
          "later",
          "guardrails-max-limit-usd",
          "advisory",
          "can't run policy 'guardrails-max-limit-usd' from policy pack 'org@v0.0.1' during preview: guardrail \"later\": limitUsd is not known yet; guardrails-max-limit-usd is checked at up",
        ),
      ),
    );
    expect(md).toContain(
      'on `later`: guardrail \\"later\\"\\: limitUsd is not known yet\\; guardrails\\-max\\-limit\\-usd is checked at up',
    );
  });
});
