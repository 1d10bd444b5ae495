/**
 * Each test file of the unit project gets a create journal of its own (vitest `setupFiles`).
 * The journal's default folder is the user's (`~/.pulumi-guardrails/journal`), shared by every
 * run on the machine: an entry left there by an earlier test whose emulator had the same port,
 * resource name and body is a killed run's create to the journal, and a later create recovers it
 * (an extra GET), which made call-counting tests flaky under load.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

process.env.GUARDRAILS_JOURNAL_DIR = join(mkdtempSync(join(tmpdir(), "guardrails-test-journal-")), "journal");
