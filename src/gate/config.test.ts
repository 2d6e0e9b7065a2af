import { describe, expect, it } from "vitest";
import { DEFAULT_GATE_CONFIG, RULES_VERSION, resolveGateConfig, ruleVersion } from "./config.js";
import { GateConfigSchema } from "./schema.js";

describe("resolveGateConfig", () => {
  it("returns the defaults without an override", () => {
    expect(resolveGateConfig(DEFAULT_GATE_CONFIG)).toEqual(GateConfigSchema.parse({}));
  });

  it("deep-merges an override and keeps the other defaults", () => {
    const config = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { min_answer_length: { min_chars: 5 }, sentence_support: { severity: "warn" } },
      actions: { partial: "refuse" },
    });
    expect(config.checks.min_answer_length).toEqual({
      enabled: true,
      severity: "warn",
      min_chars: 5,
    });
    expect(config.checks.sentence_support.severity).toBe("warn");
    expect(config.checks.sentence_support.min_token_support).toBe(0.5);
    expect(config.actions).toEqual({
      pass: "show",
      partial: "refuse",
      fail: "refuse",
      skipped: "show_with_warning",
    });
  });

  it("replaces arrays rather than merging them", () => {
    const config = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { honest_abstention: { abstention_patterns: ["no idea"] } },
    });
    expect(config.checks.honest_abstention.abstention_patterns).toEqual(["no idea"]);
  });

  it("rejects invalid values with the field at fault", () => {
    expect(() =>
      resolveGateConfig(DEFAULT_GATE_CONFIG, { checks: { citation_coverage: { threshold: 2 } } }),
    ).toThrow(/threshold/);
    expect(() =>
      resolveGateConfig(DEFAULT_GATE_CONFIG, {
        checks: { no_empty_answer: { template_patterns: ["(unclosed"] } },
      }),
    ).toThrow(/regular expression/);
  });

  it("gives the same frozen object for the same override", () => {
    const a = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { min_answer_length: { min_chars: 7 } },
    });
    const b = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { min_answer_length: { min_chars: 7 } },
    });
    expect(a).toBe(b);
    expect(Object.isFrozen(a.checks.min_answer_length)).toBe(true);
  });

  it("accepts a base that is not yet parsed", () => {
    const base = {
      checks: { min_answer_length: { min_chars: 3 } },
    } as unknown as typeof DEFAULT_GATE_CONFIG;
    expect(resolveGateConfig(base).checks.min_answer_length.min_chars).toBe(3);
  });
});

describe("ruleVersion", () => {
  it("looks like gate-1+<12 hex digits>", () => {
    expect(ruleVersion(DEFAULT_GATE_CONFIG)).toMatch(
      new RegExp(`^${RULES_VERSION}\\+[0-9a-f]{12}$`),
    );
  });

  it("is stable for equal configurations, however built", () => {
    // The same configuration with every object's keys in reverse order.
    const reversed = (value: unknown): unknown =>
      Array.isArray(value)
        ? value.map(reversed)
        : value !== null && typeof value === "object"
          ? Object.fromEntries(
              Object.entries(value)
                .reverse()
                .map(([key, child]) => [key, reversed(child)]),
            )
          : value;
    const reordered = reversed(DEFAULT_GATE_CONFIG) as typeof DEFAULT_GATE_CONFIG;
    expect(Object.keys(reordered)).toEqual(Object.keys(DEFAULT_GATE_CONFIG).reverse());
    expect(ruleVersion(GateConfigSchema.parse({}))).toBe(ruleVersion(DEFAULT_GATE_CONFIG));
    expect(ruleVersion(reordered)).toBe(ruleVersion(DEFAULT_GATE_CONFIG));
  });

  it("changes when the configuration changes", () => {
    const stricter = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { min_answer_length: { min_chars: 21 } },
    });
    const disabled = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { honest_abstention: { enabled: false } },
    });
    const versions = new Set([
      ruleVersion(DEFAULT_GATE_CONFIG),
      ruleVersion(stricter),
      ruleVersion(disabled),
    ]);
    expect(versions.size).toBe(3);
  });
});
