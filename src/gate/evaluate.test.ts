import { describe, expect, it } from "vitest";
import { DEFAULT_GATE_CONFIG, resolveGateConfig, ruleVersion } from "./config.js";
import { aggregateStatus, evaluateGate } from "./evaluate.js";
import {
  type CheckStatus,
  type EvaluatorInput,
  GateConfigSchema,
  GateVerdictSchema,
} from "./schema.js";

const HITS = [
  {
    node_id: "metro#1",
    content:
      "The Harrow Line metro opened on March 5, 2009 with 14 stations and 22.6 km of track. It carries " +
      "186,000 riders a day, about 12.5% of all trips in the city.",
  },
  {
    node_id: "metro#2",
    content:
      "A second line, the Saltgate Line, is planned for 2031 with 9 stations along the river.",
  },
];

function input(answer: string, extra: Partial<EvaluatorInput> = {}): EvaluatorInput {
  return {
    conversation_id: "c1",
    message_id: "m1",
    retrieval_record: { id: "r1" },
    retrieval_hits: HITS,
    generation_record: { id: "g1" },
    generation_output: { answer, citations: [{ node_id: "metro#1" }] },
    ...extra,
  };
}

const GOOD = "The Harrow Line metro opened in 2009 with 14 stations and 22.6 km of track [1].";

describe("aggregateStatus (seed 004 §6.2)", () => {
  const of = (...statuses: CheckStatus[]) =>
    aggregateStatus(statuses.map((status) => ({ status })));

  it.each([
    [["pass", "warn", "fail", "skipped"], "fail"],
    [["fail"], "fail"],
    [["pass", "warn", "skipped"], "partial"],
    [["warn"], "partial"],
    [["pass", "skipped"], "pass"],
    [["pass"], "pass"],
    [["skipped", "skipped"], "skipped"],
    [[], "skipped"],
  ] as [CheckStatus[], string][])("%j -> %s", (statuses, expected) => {
    expect(of(...statuses)).toBe(expected);
  });
});

describe("evaluateGate", () => {
  it("passes a grounded, cited answer and maps the verdict to an action", () => {
    const verdict = evaluateGate(input(GOOD));
    expect(verdict.status).toBe("pass");
    expect(verdict.action).toBe("show");
    expect(verdict.rule_version).toBe(ruleVersion(DEFAULT_GATE_CONFIG));
    expect(verdict.checks.map((c) => c.name)).toEqual([
      "no_empty_answer",
      "require_citations",
      "citation_coverage",
      "min_answer_length",
      "citation_markers",
      "sentence_support",
      "numeric_consistency",
      "honest_abstention",
    ]);
    expect(GateVerdictSchema.parse(verdict)).toEqual(verdict);
  });

  it("reports each score only when measurable, always in [0,1]", () => {
    expect(evaluateGate(input(GOOD)).scores).toEqual({
      citation_coverage: 1,
      marker_resolution: 1,
      sentence_support: 1,
      numeric_consistency: 1,
    });
    const bare = evaluateGate(
      input("The sources do not mention the fare.", {
        generation_output: { answer: "The sources do not mention the fare.", citations: [] },
      }),
    );
    expect(bare.scores).toEqual({});
  });

  it("fails when require_citations fails, and refuses", () => {
    const verdict = evaluateGate(
      input("The metro opened in 2009.", {
        generation_output: { answer: "The metro opened in 2009.", citations: [] },
      }),
    );
    expect(verdict.checks.find((c) => c.name === "require_citations")?.status).toBe("fail");
    expect(verdict).toMatchObject({ status: "fail", action: "refuse" });
  });

  it("gives partial for warnings only", () => {
    const verdict = evaluateGate(input("Opened 2009 [1]."));
    expect(verdict.checks.find((c) => c.name === "min_answer_length")?.status).toBe("warn");
    expect(verdict).toMatchObject({ status: "partial", action: "show_with_warning" });
  });

  it("gives skipped when every check that runs is skipped", () => {
    const onlyAbstention = input("Anything.", {
      config: {
        checks: Object.fromEntries(
          [
            "no_empty_answer",
            "require_citations",
            "citation_coverage",
            "min_answer_length",
            "citation_markers",
            "sentence_support",
            "numeric_consistency",
          ].map((name) => [name, { enabled: false }]),
        ),
      },
    });
    const verdict = evaluateGate(onlyAbstention);
    expect(verdict.checks.map((c) => [c.name, c.status])).toEqual([
      ["honest_abstention", "skipped"],
    ]);
    expect(verdict).toMatchObject({ status: "skipped", action: "show_with_warning" });
  });

  it("applies a per-answer override: disabled checks do not appear, severities and actions change", () => {
    const invented = "The Harrow Line metro opened in 2009 with 18 stations [1].";
    expect(evaluateGate(input(invented)).status).toBe("fail");
    const relaxed = evaluateGate(
      input(invented, {
        config: {
          checks: {
            numeric_consistency: { severity: "warn" },
            honest_abstention: { enabled: false },
          },
          actions: { partial: "refuse" },
        },
      }),
    );
    expect(relaxed).toMatchObject({ status: "partial", action: "refuse" });
    expect(relaxed.checks.map((c) => c.name)).not.toContain("honest_abstention");
    expect(relaxed.config.checks.numeric_consistency.severity).toBe("warn");
    expect(relaxed.rule_version).not.toBe(ruleVersion(DEFAULT_GATE_CONFIG));
  });

  it("uses a base configuration, which the answer's override refines", () => {
    const base = resolveGateConfig(DEFAULT_GATE_CONFIG, {
      checks: { min_answer_length: { min_chars: 500 } },
    });
    expect(evaluateGate(input(GOOD), base).status).toBe("partial");
    const refined = input(GOOD, {
      config: { checks: { min_answer_length: { severity: "fail" } } },
    });
    expect(evaluateGate(refined, base).status).toBe("fail");
    expect(evaluateGate(refined, base).config.checks.min_answer_length).toMatchObject({
      min_chars: 500,
      severity: "fail",
    });
  });

  it("is deterministic and keeps rule_version stable", () => {
    const a = evaluateGate(input(GOOD));
    const b = evaluateGate(structuredClone(input(GOOD)));
    expect(JSON.stringify(b)).toBe(JSON.stringify(a));
    expect(evaluateGate(input(GOOD), GateConfigSchema.parse({})).rule_version).toBe(a.rule_version);
  });

  it("notices a new answer on the same input object", () => {
    const same = input(GOOD);
    expect(evaluateGate(same).status).toBe("pass");
    same.generation_output = { answer: "The metro has 99 stations [1].", citations: [] };
    expect(evaluateGate(same).status).toBe("fail");
  });

  it("keeps citation_coverage in [0,1] for any citations", () => {
    const ids = ["metro#1", "metro#2", "x", "y", "metro#1"];
    for (let mask = 1; mask < 1 << ids.length; mask++) {
      const citations = ids.filter((_, i) => mask & (1 << i)).map((node_id) => ({ node_id }));
      const { scores } = evaluateGate(
        input(GOOD, { generation_output: { answer: GOOD, citations } }),
      );
      expect(scores.citation_coverage).toBeGreaterThanOrEqual(0);
      expect(scores.citation_coverage).toBeLessThanOrEqual(1);
    }
  });
});
