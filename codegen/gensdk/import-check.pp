resource copy "guardrails:index:Guardrail" {
    name = "Other"
    limitUsd = 5
    resetInterval = "daily"
    contentFilterBuiltins = [{
        slug = "email"
        action = "redact"
    }]
    options {
        protect = true
    }
}
