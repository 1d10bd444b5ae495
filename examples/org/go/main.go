// The organization of examples/org (README.md there), in Go on the native provider: three
// guardrails, an exclusive member set, a key set and a guardrail looked up by name.
package main

import (
	"github.com/pulumi-guardrails/pulumi-guardrails/sdk/go/guardrails"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")

		// Product engineers: two vendors' models through two providers, zero data retention,
		// personal data redacted, prompt injection flagged, EU and US processing only.
		engineering, err := guardrails.NewGuardrail(ctx, "engineering", &guardrails.GuardrailArgs{
			Name:              pulumi.String("Engineering"),
			Description:       pulumi.String("Product engineers"),
			AllowedModels:     pulumi.StringArray{pulumi.String("vendor-a/model-x"), pulumi.String("vendor-b/model-m")},
			AllowedProviders:  pulumi.StringArray{pulumi.String("provider-a"), pulumi.String("provider-b")},
			EnforceZdrVendorA: pulumi.Bool(true),
			EnforceZdrVendorB: pulumi.Bool(true),
			ContentFilterBuiltins: guardrails.BuiltinFilterArray{
				guardrails.BuiltinFilterArgs{Slug: guardrails.BuiltinFilterSlugEmail, Action: guardrails.FilterActionRedact},
				guardrails.BuiltinFilterArgs{
					Slug:      guardrails.BuiltinFilterSlugRegexPromptInjection,
					Action:    guardrails.FilterActionFlag,
					ScanScope: guardrails.ScanScopeUserOnly,
				},
			},
			AllowedDataRegions: guardrails.DataRegionArray{guardrails.DataRegionEurope, guardrails.DataRegionUs},
			LimitUsd:           pulumi.Float64(500),
			ResetInterval:      guardrails.ResetIntervalMonthly,
		})
		if err != nil {
			return err
		}

		// Research: everything but one model and one provider; no training or publication of prompts.
		research, err := guardrails.NewGuardrail(ctx, "research", &guardrails.GuardrailArgs{
			Name:                       pulumi.String("Research"),
			IgnoredModels:              pulumi.StringArray{pulumi.String("vendor-c/model-q")},
			IgnoredProviders:           pulumi.StringArray{pulumi.String("provider-z")},
			EnforceZdrVendorC:          pulumi.Bool(true),
			EnforceZdrOther:            pulumi.Bool(false),
			EnableFreeModelTraining:    pulumi.Bool(false),
			EnablePaidModelTraining:    pulumi.Bool(false),
			EnableFreeModelPublication: pulumi.Bool(false),
			ContentFilters: guardrails.CustomFilterArray{
				guardrails.CustomFilterArgs{
					Pattern: pulumi.String(`\bproject-[a-z]+\b`),
					Action:  guardrails.FilterActionRedact,
					Label:   pulumi.String("CODENAME"),
				},
			},
			LimitUsd:             pulumi.Float64(1000),
			ResetInterval:        guardrails.ResetIntervalWeekly,
			IncludeByokInBudgets: pulumi.Bool(true),
		})
		if err != nil {
			return err
		}

		// Customer support, in its own workspace: a small model, EU processing, card and ID data kept out.
		support, err := guardrails.NewGuardrail(ctx, "support", &guardrails.GuardrailArgs{
			Name:          pulumi.String("Support"),
			Description:   pulumi.String("Customer support agents"),
			WorkspaceId:   pulumi.String("00000000-0000-4000-8000-000000000002"),
			AllowedModels: pulumi.StringArray{pulumi.String("vendor-a/model-x-mini")},
			ContentFilterBuiltins: guardrails.BuiltinFilterArray{
				guardrails.BuiltinFilterArgs{Slug: guardrails.BuiltinFilterSlugSsn, Action: guardrails.FilterActionBlock},
				guardrails.BuiltinFilterArgs{Slug: guardrails.BuiltinFilterSlugCreditCard, Action: guardrails.FilterActionRedact},
				guardrails.BuiltinFilterArgs{Slug: guardrails.BuiltinFilterSlugPhone, Action: guardrails.FilterActionRedact},
			},
			ContentFilters: guardrails.CustomFilterArray{
				guardrails.CustomFilterArgs{Pattern: pulumi.String("internal only"), Action: guardrails.FilterActionBlock},
			},
			AllowedDataRegions: guardrails.DataRegionArray{guardrails.DataRegionEurope},
			LimitUsd:           pulumi.Float64(50),
			ResetInterval:      guardrails.ResetIntervalDaily,
		})
		if err != nil {
			return err
		}

		// The engineering guardrail's whole membership (exclusive: members added by hand are removed).
		var members []string
		cfg.RequireObject("engineeringMembers", &members)
		if _, err := guardrails.NewGuardrailMemberAssignment(ctx, "engineering-members", &guardrails.GuardrailMemberAssignmentArgs{
			GuardrailId:   engineering.ID(),
			MemberUserIds: pulumi.ToStringArray(members),
			Exclusive:     pulumi.Bool(true),
		}); err != nil {
			return err
		}

		// The support bots' API keys (additive: other keys on the guardrail are left alone).
		if _, err := guardrails.NewGuardrailKeyAssignment(ctx, "support-keys", &guardrails.GuardrailKeyAssignmentArgs{
			GuardrailId: support.ID(),
			KeyHashes:   pulumi.StringArray{pulumi.String("a1b2c3d4e5f60718"), pulumi.String("b2c3d4e5f6071829")},
		}); err != nil {
			return err
		}

		// A guardrail this program does not manage (the finance team owns it), looked up by name.
		finance := guardrails.LookupGuardrailOutput(ctx, guardrails.LookupGuardrailOutputArgs{Name: pulumi.String("Finance")})

		ctx.Export("engineeringId", engineering.ID())
		ctx.Export("researchId", research.ID())
		ctx.Export("supportId", support.ID())
		ctx.Export("financeId", finance.Id())
		ctx.Export("financeLimitUsd", finance.LimitUsd())
		return nil
	})
}
