module org-go

go 1.25

require (
	github.com/pulumi-guardrails/pulumi-guardrails/sdk/go v0.6.0
	github.com/pulumi/pulumi/sdk/v3 v3.248.0
)
