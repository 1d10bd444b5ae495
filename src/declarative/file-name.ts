/** The policy file's name (`guardrails/policy.yaml`): the declarative loader skips it. */
import { basename } from "node:path";

export const POLICY_FILE = /^policy\.(ya?ml|json)$/i;

/** Whether a path names a policy file rather than a guardrail config. */
export const isPolicyFile = (path: string) => POLICY_FILE.test(basename(path));
