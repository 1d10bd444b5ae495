/**
 * Once per e2e run: a working `pulumi` (scripts/ensure-pulumi builds it if needed; a missing
 * CLI fails the run, it never skips), the package packed with `npm pack`, and a template
 * program that installed the tarball the way a user would. Scenarios symlink its node_modules.
 */
import type { TestProject } from "vitest/node";
import { preparePulumiTemplate } from "../helpers/pulumi-template";

export default function setup(project: TestProject) {
  project.provide("e2e", preparePulumiTemplate("guardrails-e2e-"));
}

declare module "vitest" {
  export interface ProvidedContext {
    e2e: { pulumiBinDir: string; template: string; work: string; tarball: string };
  }
}
