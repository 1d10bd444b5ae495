/**
 * The two programs the benchmark compares, each reading its member list from members.json.
 * `set`: one GuardrailMemberAssignment. `perMember`: one resource per member whose read
 * pages the guardrail's list until it finds itself, as the service's Terraform provider does.
 */

export const SET_PROGRAM = `
import { readFileSync } from "fs";
import { Guardrail, GuardrailMemberAssignment } from "pulumi-guardrails";
const members: string[] = JSON.parse(readFileSync("members.json", "utf8"));
const g = new Guardrail("bench", { name: "Bench" });
new GuardrailMemberAssignment("bench-members", { guardrailId: g.id, memberUserIds: members });
`;

export const PER_MEMBER_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "fs";
import { Guardrail } from "pulumi-guardrails";
const members: string[] = JSON.parse(readFileSync("members.json", "utf8"));

async function api(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(process.env.GUARDRAILS_BASE_URL + "/api/v1" + path, {
    method,
    headers: { authorization: "Bearer " + process.env.GUARDRAILS_API_KEY, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(method + " " + path + ": " + res.status);
  return res.json();
}

const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) {
    await api("POST", "/guardrails/" + inputs.guardrailId + "/assignments/members", { member_user_ids: [inputs.userId] });
    return { id: inputs.guardrailId + "/" + inputs.userId, outs: inputs };
  },
  async read(id, props) {
    for (let offset = 0; ; offset += 100) {
      const page = await api("GET", "/guardrails/" + props.guardrailId + "/assignments/members?offset=" + offset + "&limit=100");
      if (page.data.some((r: { user_id: string }) => r.user_id === props.userId)) return { id, props };
      if (offset + 100 >= page.total_count) return {};
    }
  },
  async diff(_id, olds, news) {
    const replace = olds.userId !== news.userId || olds.guardrailId !== news.guardrailId;
    return { changes: replace, replaces: replace ? ["userId"] : [] };
  },
  async delete(_id, props) {
    await api("POST", "/guardrails/" + props.guardrailId + "/assignments/members/remove", { member_user_ids: [props.userId] });
  },
};

class PerMemberAssignment extends pulumi.dynamic.Resource {
  constructor(name: string, args: { guardrailId: pulumi.Input<string>; userId: string }) {
    super(provider, name, args, {}, "bench", "PerMemberAssignment");
  }
}

const g = new Guardrail("bench", { name: "Bench" });
for (const m of members) new PerMemberAssignment("m-" + m, { guardrailId: g.id, userId: m });
`;

/**
 * The engine's floor: one dynamic resource whose provider makes no call and holds nothing.
 * The same CLI command on it times Pulumi itself (CLI, language host, provider start-up).
 */
export const FLOOR_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "fs";
const round: number = JSON.parse(readFileSync("floor.json", "utf8"));
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: "floor", outs: inputs }; },
  async read(id, props) { return { id, props }; },
  async diff(_id, olds, news) { return { changes: olds.round !== news.round }; },
  async update(_id, _olds, news) { return { outs: news }; },
  async delete() {},
};
class Floor extends pulumi.dynamic.Resource {
  constructor(name: string) { super(provider, name, { round }, {}, "bench", "Floor"); }
}
new Floor("floor");
`;

/**
 * The floor with the set's payload: a dynamic resource whose provider makes no call and does
 * nothing, carrying the same \`members\` map of N ids that the set carries. Its time and memory
 * are what the engine and the dynamic-provider host spend on the map alone.
 */
export const PAYLOAD_FLOOR_PROGRAM = `
import * as pulumi from "@pulumi/pulumi";
import { readFileSync } from "fs";
const ids: string[] = JSON.parse(readFileSync("members.json", "utf8"));
const members = Object.fromEntries([...new Set(ids)].sort().map((id) => [id, true]));
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs) { return { id: "floor", outs: inputs }; },
  async read(id, props) { return { id, props, inputs: props } as pulumi.dynamic.ReadResult; },
  async diff(_id, olds, news) { return { changes: Object.keys(olds.members).length !== Object.keys(news.members).length }; },
  async update(_id, _olds, news) { return { outs: news }; },
  async delete() {},
};
class PayloadFloor extends pulumi.dynamic.Resource {
  constructor(name: string) { super(provider, name, { guardrailId: "3f2b8c1e-0000-4000-8000-000000000001", exclusive: false, members }, {}, "bench", "PayloadFloor"); }
}
new PayloadFloor("payload-floor");
`;
