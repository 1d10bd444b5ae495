import { PolicyPack } from "@pulumi/policy";
import { policiesFromFile } from "pulumi-guardrails/policy";
new PolicyPack("guardrails-org-rules", { policies: policiesFromFile(`${__dirname}/../guardrails/policy.yaml`) });
