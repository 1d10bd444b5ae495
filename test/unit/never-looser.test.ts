/**
 * The "never looser" oracle of the move to policies (test/helpers/never-looser.ts): equal and
 * stricter answers pass; each planted loosening is caught and named.
 */
import { describe, expect, it } from "vitest";
import { type Enforcement, loosenings } from "../helpers/never-looser";

const base: Enforcement = {
  budgets: [{ limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: true }],
  model_availability: {
    allowed_models: null,
    allowed_providers: ["vendor-a", "vendor-b"],
    ignored_models: ["vendor-x/model-1"],
    ignored_providers: null,
    enforce_zdr_vendor_a: true,
    enforce_zdr_vendor_b: null,
    enforce_zdr_vendor_c: null,
    enforce_zdr_other: null,
    enable_free_model_training: false,
    enable_paid_model_training: null,
    enable_free_model_publication: null,
    allowed_data_regions: ["europe"],
  },
  moderation: {
    content_filter_builtins: [{ slug: "email", action: "redact" }],
    content_filters: [{ pattern: "secret", action: "block", scan_scope: "all_messages" }],
  },
};

/** `base` with some parts changed. */
const planted = (ma: Record<string, unknown> = {}, rest: Partial<Enforcement> = {}): Enforcement => ({
  ...base,
  ...rest,
  model_availability: { ...base.model_availability, ...ma },
});

describe("loosenings(before, after)", () => {
  it("finds nothing when the answer is the same, or stricter everywhere", () => {
    expect(loosenings(base, base)).toEqual([]);
    const stricter = planted(
      {
        allowed_models: ["vendor-a/model-1"],
        allowed_providers: ["vendor-a"],
        ignored_providers: ["vendor-y"],
        enforce_zdr_vendor_b: true,
        enable_paid_model_training: false,
        allowed_data_regions: [],
      },
      {
        budgets: [...base.budgets, { limit_usd: 10, reset_interval: "daily", include_byok_in_budgets: false }],
        moderation: {
          content_filter_builtins: [
            { slug: "email", action: "block" },
            { slug: "phone", action: "flag" },
          ],
          content_filters: base.moderation.content_filters,
        },
      },
    );
    expect(loosenings(base, stricter)).toEqual([]);
    // The other way round, every one of those is a loosening.
    expect(loosenings(stricter, base)).toHaveLength(9);
  });

  it("catches each planted loosening and names it", () => {
    const cases: Array<[Enforcement, string]> = [
      [
        planted({ allowed_providers: ["vendor-a", "vendor-b", "vendor-c"] }),
        'allowed_providers: allows ["vendor-c"] too',
      ],
      [planted({ allowed_providers: null }), 'allowed_providers: ["vendor-a","vendor-b"] -> null (no restriction)'],
      [planted({ allowed_data_regions: ["europe", "us"] }), 'allowed_data_regions: allows ["us"] too'],
      [planted({ ignored_models: [] }), 'ignored_models: no longer ignores ["vendor-x/model-1"]'],
      [planted({ enforce_zdr_vendor_a: null }), "enforce_zdr_vendor_a: true -> null"],
      [planted({ enable_free_model_training: null }), "enable_free_model_training: false -> null"],
      [planted({ enable_paid_model_training: true }), "enable_paid_model_training: null -> true"],
      [planted({}, { budgets: [] }), "budget 50 USD monthly with BYOK: no budget as strict remains"],
      [
        planted({}, { budgets: [{ limit_usd: 60, reset_interval: "monthly", include_byok_in_budgets: true }] }),
        "budget 50 USD monthly with BYOK: no budget as strict remains",
      ],
      [
        planted({}, { budgets: [{ limit_usd: 50, reset_interval: "monthly", include_byok_in_budgets: false }] }),
        "budget 50 USD monthly with BYOK: no budget as strict remains",
      ],
      [
        planted({}, { budgets: [{ limit_usd: 50, reset_interval: "weekly", include_byok_in_budgets: true }] }),
        "budget 50 USD monthly with BYOK: no budget as strict remains",
      ],
      [
        planted(
          {},
          { moderation: { ...base.moderation, content_filter_builtins: [{ slug: "email", action: "flag" }] } },
        ),
        'content_filter_builtins["email"]: action "redact" -> "flag"',
      ],
      [
        planted({}, { moderation: { ...base.moderation, content_filter_builtins: null } }),
        'content_filter_builtins["email"]: removed (was "redact")',
      ],
      [
        planted(
          {},
          {
            moderation: {
              ...base.moderation,
              content_filters: [{ pattern: "secret", action: "block", scan_scope: "user_messages" }],
            },
          },
        ),
        'content_filters["secret"]: scan_scope "all_messages" -> "user_messages"',
      ],
    ];
    for (const [after, line] of cases) expect(loosenings(base, after)).toEqual([line]);
  });
});
