"""The organization of examples/org (README.md there), in Python on the native provider:
three guardrails, an exclusive member set, a key set and a guardrail looked up by name."""

import pulumi
import pulumi_guardrails as guardrails

config = pulumi.Config()

# Product engineers: two vendors' models through two providers, zero data retention,
# personal data redacted, prompt injection flagged, EU and US processing only.
engineering = guardrails.Guardrail(
    "engineering",
    name="Engineering",
    description="Product engineers",
    allowed_models=["vendor-a/model-x", "vendor-b/model-m"],
    allowed_providers=["provider-a", "provider-b"],
    enforce_zdr_vendor_a=True,
    enforce_zdr_vendor_b=True,
    content_filter_builtins=[
        guardrails.BuiltinFilterArgs(
            slug=guardrails.BuiltinFilterSlug.EMAIL, action=guardrails.FilterAction.REDACT
        ),
        guardrails.BuiltinFilterArgs(
            slug=guardrails.BuiltinFilterSlug.REGEX_PROMPT_INJECTION,
            action=guardrails.FilterAction.FLAG,
            scan_scope=guardrails.ScanScope.USER_ONLY,
        ),
    ],
    allowed_data_regions=[guardrails.DataRegion.EUROPE, guardrails.DataRegion.US],
    limit_usd=500,
    reset_interval=guardrails.ResetInterval.MONTHLY,
)

# Research: everything but one model and one provider; no training or publication of prompts.
research = guardrails.Guardrail(
    "research",
    name="Research",
    ignored_models=["vendor-c/model-q"],
    ignored_providers=["provider-z"],
    enforce_zdr_vendor_c=True,
    enforce_zdr_other=False,
    enable_free_model_training=False,
    enable_paid_model_training=False,
    enable_free_model_publication=False,
    content_filters=[
        guardrails.CustomFilterArgs(
            pattern=r"\bproject-[a-z]+\b", action=guardrails.FilterAction.REDACT, label="CODENAME"
        ),
    ],
    limit_usd=1000,
    reset_interval=guardrails.ResetInterval.WEEKLY,
    include_byok_in_budgets=True,
)

# Customer support, in its own workspace: a small model, EU processing, card and ID data kept out.
support = guardrails.Guardrail(
    "support",
    name="Support",
    description="Customer support agents",
    workspace_id="00000000-0000-4000-8000-000000000002",
    allowed_models=["vendor-a/model-x-mini"],
    content_filter_builtins=[
        guardrails.BuiltinFilterArgs(slug=guardrails.BuiltinFilterSlug.SSN, action=guardrails.FilterAction.BLOCK),
        guardrails.BuiltinFilterArgs(
            slug=guardrails.BuiltinFilterSlug.CREDIT_CARD, action=guardrails.FilterAction.REDACT
        ),
        guardrails.BuiltinFilterArgs(slug=guardrails.BuiltinFilterSlug.PHONE, action=guardrails.FilterAction.REDACT),
    ],
    content_filters=[guardrails.CustomFilterArgs(pattern="internal only", action=guardrails.FilterAction.BLOCK)],
    allowed_data_regions=[guardrails.DataRegion.EUROPE],
    limit_usd=50,
    reset_interval=guardrails.ResetInterval.DAILY,
)

# The engineering guardrail's whole membership (exclusive: members added by hand are removed).
guardrails.GuardrailMemberAssignment(
    "engineering-members",
    guardrail_id=engineering.id,
    member_user_ids=config.require_object("engineeringMembers"),
    exclusive=True,
)

# The support bots' API keys (additive: other keys on the guardrail are left alone).
guardrails.GuardrailKeyAssignment(
    "support-keys",
    guardrail_id=support.id,
    key_hashes=["a1b2c3d4e5f60718", "b2c3d4e5f6071829"],
)

# A guardrail this program does not manage (the finance team owns it), looked up by name.
finance = guardrails.get_guardrail_output(name="Finance")

pulumi.export("engineeringId", engineering.id)
pulumi.export("researchId", research.id)
pulumi.export("supportId", support.id)
pulumi.export("financeId", finance.id)
pulumi.export("financeLimitUsd", finance.limit_usd)
