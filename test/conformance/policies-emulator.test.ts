/**
 * Issue 40, "must show": every answer of the emulator's 23 Guardrail Policies operations validates
 * against docs/guardrail-policies.openapi.json (ajv, JSON Schema 2020-12), and so does every
 * request body this test sends where the file has its schema. Until an installable SDK has these
 * operations, the extracted schemas are the outside check (docs/api-contract.md rules 22 to 33).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_WS, TEST_KEY, withEmulator } from "../helpers/emulator";
import { http } from "../helpers/spawn-emulator";

type Schema = Record<string, unknown> | null;
interface Operation {
  operationId: string;
  method: string;
  path: string;
  requestBody: { schema: Schema } | null;
  responses: Record<string, { schema: Schema }>;
}
const contract = JSON.parse(readFileSync(join(__dirname, "../../docs/guardrail-policies.openapi.json"), "utf8")) as {
  schemas: Record<string, unknown>;
  operations: Operation[];
};
const ajv = new Ajv2020({ strict: true, allErrors: true });
ajv.addSchema(contract.schemas);

const SEGMENTS = { Budget: "budget", ModelAvailability: "model-availability", Moderation: "moderation" } as const;
const CONFIGS = {
  Budget: { limit_usd: 10, reset_interval: "monthly", include_byok_in_budgets: false },
  ModelAvailability: { allowed_models: ["vendor-a/model-x"], allowed_data_regions: ["europe"], enforce_zdr: true },
  Moderation: { content_filter_builtins: [{ slug: "email", action: "redact" }] },
};
const TYPES = { Budget: "budget", ModelAvailability: "model_availability", Moderation: "moderation" };

/** What each operation answered, by operationId, with the request body sent. */
const answers = new Map<string, { status: number; body: unknown; sent?: unknown }>();

let emu: Awaited<ReturnType<typeof withEmulator>>;
beforeAll(async () => {
  emu = await withEmulator();
  const api = http(`${emu.url}/api/v1`, TEST_KEY);
  const call = async (operationId: string, method: string, path: string, sent?: unknown) => {
    const res = await api(method, path, sent);
    answers.set(operationId, { status: res.status, body: res.body, sent });
    return res.body;
  };
  const P = "/guardrails/policies";
  const q = `workspace_id=${DEFAULT_WS}`;
  // A mapped guardrail, so that lists and details carry the legacy fields and a reference.
  await api("POST", "/guardrails", { name: "legacy", limit_usd: 1, reset_interval: "daily" });
  for (const [name, seg] of Object.entries(SEGMENTS) as [keyof typeof SEGMENTS, string][]) {
    const body = {
      name: `${seg} policy`,
      policy_type: TYPES[name],
      workspace_id: DEFAULT_WS,
      config: CONFIGS[name],
      member_ids: ["user_alice"],
      api_key_hashes: ["a1b2c3d4e5f60718"],
      opted_out_member_ids: ["user_bob"],
      is_workspace_default: true,
    };
    const made = (await call(`create${name}Policy`, "POST", `${P}/${seg}`, body)) as { data: { id: string } };
    const id = made.data.id;
    await call(`list${name}Policies`, "GET", `${P}/${seg}?${q}`);
    await call(`get${name}Policy`, "GET", `${P}/${seg}/${id}?${q}`);
    const { policy_type: _t, ...update } = body;
    await call(`update${name}Policy`, "PUT", `${P}/${seg}/${id}`, { ...update, name: "renamed" });
    if (name === "Budget") {
      const change = { workspace_id: DEFAULT_WS, policy_id: id, policy_type: "budget", assigned: false };
      const key = `${P}/assignments/api-keys/a1b2c3d4e5f60718`;
      const member = `${P}/assignments/members/user_alice`;
      const keyState = (await call("getApiKeyPolicyAssignment", "GET", `${key}?${q}&policy_type=budget`)) as {
        data: unknown;
      };
      await call("changeApiKeyPolicyAssignment", "PUT", key, { ...change, expected_assignment: keyState.data });
      const memberState = (await call("getMemberPolicyAssignment", "GET", `${member}?${q}&policy_type=budget`)) as {
        data: unknown;
      };
      await call("changeMemberPolicyAssignment", "PUT", member, { ...change, expected_assignment: memberState.data });
    }
    await call(`delete${name}Policy`, "DELETE", `${P}/${seg}/${id}?${q}`);
  }
  const account = { name: "org", policy_type: "budget", config: CONFIGS.Budget, workspace_ids: [DEFAULT_WS] };
  const made = (await call("createAccountPolicy", "POST", `${P}/account`, account)) as { data: { id: string } };
  await call("listAccountPolicies", "GET", `${P}/account`);
  await call("updateAccountPolicy", "PUT", `${P}/account/${made.data.id}`, { ...account, is_default: true });
  await call("deleteAccountPolicy", "DELETE", `${P}/account/${made.data.id}`);
});
afterAll(() => emu.close());

/** The success schema of an operation: its 200, or the `success` entry where the status is not known. */
const successSchema = (op: Operation) => (op.responses["200"] ?? op.responses.success)?.schema ?? null;

describe("the emulator against the extracted OpenAPI schemas (rules 22 to 33)", () => {
  it.each(contract.operations.map((op) => [op.operationId, op] as const))(
    "%s: the answer validates, and so does the body sent",
    (_id, op) => {
      const answer = answers.get(op.operationId);
      expect(answer, `the scenario calls ${op.operationId}`).toBeDefined();
      expect([200, 201], JSON.stringify(answer!.body)).toContain(answer!.status);
      const validate = ajv.compile(successSchema(op)!);
      expect(validate(answer!.body), JSON.stringify(validate.errors)).toBe(true);
      if (op.requestBody?.schema) {
        const request = ajv.compile(op.requestBody.schema);
        expect(request(answer!.sent), JSON.stringify(request.errors)).toBe(true);
      }
    },
  );

  it("covers N of N operations", () => {
    const validated = contract.operations.filter((op) => {
      const answer = answers.get(op.operationId);
      return answer !== undefined && ajv.compile(successSchema(op)!)(answer.body);
    });
    console.log(
      `policy operations validated against the OpenAPI schemas: ${validated.length} of ${contract.operations.length}`,
    );
    expect(contract.operations).toHaveLength(23);
    expect(validated.length).toBe(contract.operations.length);
  });
});
