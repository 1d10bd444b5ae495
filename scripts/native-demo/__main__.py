"""The demo's program in Python, on the SDK gensdk generates from the plugin's schema:
the same guardrail as Pulumi.yaml beside it. `pulumi config set edited true` makes the edit."""
import pulumi
import pulumi_guardrails as guardrails

edited = pulumi.Config().get_bool("edited") or False
eng = guardrails.Guardrail(
    "eng",
    name="Engineering",
    description="Default policy for product engineers",
    allowed_models=["vendor-a/model-x", "vendor-c/model-q" if edited else "vendor-b/model-m"],
    limit_usd=pulumi.Output.secret(500),
    reset_interval="monthly",
    enforce_zdr_vendor_a=True,
    content_filter_builtins=[
        {"slug": "email", "action": "block" if edited else "redact"},
        {"slug": "phone", "action": "redact"} if edited else {"slug": "credit-card", "action": "block"},
    ],
)
looked = guardrails.get_guardrail_output(id=eng.id)

pulumi.export("id", eng.id)
pulumi.export("lookedUpName", looked.name)
