import { Guardrail, GuardrailMemberAssignment } from "pulumi-guardrails";

const team = new Guardrail("team", { name: "Team" });

// Additive (default): manages exactly these members and never touches others.
// exclusive: true would own the guardrail's whole member set.
const members = new GuardrailMemberAssignment("team-members", {
  guardrailId: team.id,
  memberUserIds: ["user_alice", "user_bob"],
});

export const assigned = members.memberUserIds;
