/**
 * What a lifecycle, a lookup or a check reaches the service with: a client and the settings it
 * was made from, handed in by the face that serves it. Each face makes one per provider
 * instance from that instance's config (settings/config.ts, `ProviderConfig`); a test hands in
 * its own. No lifecycle reaches for a module-level client (issue 39), so two providers in one
 * process (two organizations, a workspace-scoped key) each call with their own.
 */
import type { GuardrailsClient } from "./client/client";
import type { ResolvedSettings } from "./settings/config";

export type { ResolvedSettings };

export interface Connection {
  /**
   * The client, made at its first use and kept while the settings stay the same. Reading the
   * config waits until then: a missing key or URL fails the first call that needs the service,
   * naming both ways to set it.
   */
  client(): GuardrailsClient;
  /** The settings the client is made from; throws as `client` does when they cannot be resolved. */
  settings(): ResolvedSettings;
}
