// Guardrails of an LLM-gateway management API and the members and API keys assigned to them (the native face of pulumi-guardrails).
package guardrails
