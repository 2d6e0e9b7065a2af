import { describe, expect, it } from "vitest";
import { wordMessage } from "../../text/index.js";
import type { Groundedness } from "./groundedness.js";
import { heuristicBasis, heuristicRubric, supportRamp } from "./heuristic-rubric.js";
import type { OfflineMeasures } from "./measures.js";
import type { ReferenceMatch } from "./reference-match.js";

function support(
  added: number,
  supportedAdded: number,
  numbers = 0,
  supportedNumbers = 0,
): Groundedness {
  return {
    score: added > 0 ? supportedAdded / added : null,
    tokens: added,
    supported_tokens: supportedAdded,
    added_tokens: added,
    supported_added_tokens: supportedAdded,
    numbers,
    supported_numbers: supportedNumbers,
    unsupported: supportedAdded < added ? ["pirate"] : [],
  };
}

/** Measures of a plain answer judged against contexts; each test changes what it is about. */
function measures(overrides: Partial<OfflineMeasures> = {}): OfflineMeasures {
  const grounded = support(10, 10);
  return {
    exact_match: null,
    f1: null,
    rouge_l: null,
    reference: null,
    references: 0,
    groundedness: grounded,
    groundedness_score: 1,
    attached_numbers: [],
    word_support: null,
    support: grounded,
    abstention: "none",
    empty: false,
    added_units: 10,
    ground_truth_abstains: null,
    ground_truth_coverage: null,
    ground_truth_missing: [],
    ground_truth_in_contexts: null,
    sub_questions: 1,
    answer_tokens: 10,
    question_overlap: 0.5,
    repetition: 0,
    ...overrides,
  };
}

function match(verdict: ReferenceMatch["verdict"], overrides: Partial<ReferenceMatch> = {}) {
  return {
    verdict,
    reference_index: 0,
    matched_by: verdict === "correct" ? "contains" : "none",
    coverage: verdict === "correct" ? 1 : 0,
    coarser: false,
    hedged: false,
    contradictions: [],
    conflicts: [],
    missing: [],
    ...overrides,
  } satisfies ReferenceMatch;
}

const withTruth = {
  exact_match: 0 as const,
  f1: { precision: 0.5, recall: 0.5, f1: 0.5 },
  rouge_l: { precision: 0.5, recall: 0.5, f_measure: 0.5 },
  reference: match("incorrect"),
  references: 1,
  ground_truth_abstains: false,
};

describe("supportRamp", () => {
  it("is 0 up to 20% support, 1 from 80%, linear between", () => {
    expect(supportRamp(0.1)).toBe(0);
    expect(supportRamp(0.2)).toBe(0);
    expect(supportRamp(0.5)).toBeCloseTo(0.5, 10);
    expect(supportRamp(0.8)).toBe(1);
    expect(supportRamp(1)).toBe(1);
  });
});

describe("heuristicRubric against contexts", () => {
  it("scores a fully supported answer 10 / 10 / 9", () => {
    const rubric = heuristicRubric(measures());
    expect(rubric.metrics).toEqual({
      accuracy: 10,
      completeness: 10,
      clarity: 9,
      weighted_score: 9.8,
    });
    expect(rubric.is_passing).toBe(true);
    expect(rubric.heuristic).toBe(true);
    expect(rubric.basis).toBe("contexts");
    expect(rubric.reason.startsWith("Heuristic (no LLM): ")).toBe(true);
  });

  it("maps support to accuracy: 1 + 9 × ramp(tokens) × numbers²", () => {
    // Half the added tokens supported: ramp 0.5, accuracy 5.5.
    expect(heuristicRubric(measures({ support: support(10, 5) })).metrics.accuracy).toBe(5.5);
    // All tokens, one of two numbers: 1 + 9 × 0.25 = 3.25.
    expect(heuristicRubric(measures({ support: support(10, 10, 2, 1) })).metrics.accuracy).toBe(
      3.3,
    );
    const fabricated = heuristicRubric(measures({ support: support(6, 1, 1, 0) }));
    expect(fabricated.metrics.accuracy).toBe(1);
    expect(fabricated.is_passing).toBe(false);
    expect(fabricated.suggestion).toContain("pirate");
  });

  it("maps supported units per sub-question to completeness", () => {
    // 2 supported units of the 3 × 2 expected: 1 + 9 × 1/3 = 4.
    const rubric = heuristicRubric(measures({ support: support(2, 2), sub_questions: 2 }));
    expect(rubric.metrics.completeness).toBe(4);
  });

  it("gives 5 to an answer that adds nothing to the question", () => {
    const rubric = heuristicRubric(measures({ support: support(0, 0), added_units: 0 }));
    expect(rubric.metrics.accuracy).toBe(5);
    expect(rubric.metrics.completeness).toBe(1);
  });
});

describe("heuristicRubric against a ground truth", () => {
  it("gives a correct answer 10, and 9 when it states the reference less precisely", () => {
    const correct = heuristicRubric(measures({ ...withTruth, reference: match("correct") }));
    expect(correct.basis).toBe("ground_truth");
    expect(correct.metrics.accuracy).toBe(10);
    expect(correct.metrics.completeness).toBe(10);
    expect(correct.is_passing).toBe(true);
    const coarser = heuristicRubric(
      measures({ ...withTruth, reference: match("correct", { coarser: true, coverage: 0.8 }) }),
    );
    expect(coarser.metrics.accuracy).toBe(9);
    expect(coarser.metrics.completeness).toBe(8.2);
  });

  it("takes at most 3 points for additions the contexts do not support, none without contexts", () => {
    const unsupported = { ...withTruth, reference: match("correct"), support: support(10, 5) };
    // ramp(0.5) = 0.5: 10 - 3 × 0.5.
    expect(heuristicRubric(measures(unsupported)).metrics.accuracy).toBe(8.5);
    const none = heuristicRubric(measures({ ...unsupported, support: support(10, 0) }));
    expect(none.metrics.accuracy).toBe(7);
    expect(none.is_passing).toBe(true);
    // A reference alone cannot refute extra context.
    expect(heuristicRubric(measures({ ...unsupported, groundedness: null })).metrics.accuracy).toBe(
      10,
    );
  });

  it("fails partial, vague, hedged, wrong and contradicting answers, with honest accuracy", () => {
    const score = (reference: ReferenceMatch) => {
      const rubric = heuristicRubric(measures({ ...withTruth, reference }));
      return [rubric.metrics.accuracy, rubric.metrics.completeness, rubric.is_passing];
    };
    // Part of the reference, nothing wrong: accurate, incomplete, not passing.
    expect(score(match("partial", { coverage: 0.5 }))).toEqual([8, 5.5, false]);
    expect(score(match("partial", { coverage: 0.5, coarser: true }))).toEqual([6, 5.5, false]);
    expect(score(match("partial", { hedged: true }))).toEqual([5, 1, false]);
    expect(score(match("incorrect"))).toEqual([3, 1, false]);
    const contradicted = match("contradicted", {
      contradictions: ["1870 where the reference says 1869"],
      conflicts: [{ kind: "other_value", answer: "1870", reference: "1869" }],
    });
    expect(score(contradicted)).toEqual([1.5, 1, false]);
    expect(heuristicRubric(measures({ ...withTruth, reference: contradicted })).reason).toContain(
      "1870 where the reference says 1869",
    );
  });

  it("names the reference that matched when there are several", () => {
    const rubric = heuristicRubric(
      measures({
        ...withTruth,
        references: 3,
        reference: match("correct", { reference_index: 1 }),
      }),
    );
    expect(rubric.reason).toContain("reference 2 of 3");
  });

  it("words its reason and suggestion from the same codes in English and Chinese", () => {
    const rubric = heuristicRubric(
      measures({
        ...withTruth,
        references: 2,
        repetition: 0.25,
        reference: match("partial", { coverage: 0.5, missing: ["1869", "grey brick"] }),
      }),
    );
    expect(rubric.reason).toBe(
      "Heuristic (no LLM): states part of the reference (reference 1 of 2) (50% of its facts); repeats itself (25% of its phrases).",
    );
    expect(rubric.reason_message.message).toBe(rubric.reason);
    expect(wordMessage(rubric.reason_message, "zh")).toBe(
      "启发式评判（未用 LLM）：说出了参考答案（共 2 个参考答案中的第 1 个）的一部分（其事实的 50%）；内容重复（其短语的 25%）。",
    );
    expect(rubric.suggestion).toBe(
      "State what the reference says: 1869, grey brick. Remove repeated sentences.",
    );
    expect(rubric.suggestion_message.message).toBe(rubric.suggestion);
    expect(wordMessage(rubric.suggestion_message, "zh")).toBe(
      "请说出参考答案中的内容：1869、grey brick。请删除重复的句子。",
    );
  });

  it("gives 10 to an exact match", () => {
    const rubric = heuristicRubric(measures({ ...withTruth, exact_match: 1 }));
    expect(rubric.metrics.accuracy).toBe(10);
    expect(rubric.metrics.completeness).toBe(10);
  });

  it("keeps an answer to a question with no answer at 3 or below", () => {
    const rubric = heuristicRubric(
      measures({
        ...withTruth,
        ground_truth_abstains: true,
        ground_truth_coverage: null,
        reference: match("incorrect", { matched_by: "abstention" }),
      }),
    );
    expect(rubric.metrics.accuracy).toBe(3);
    expect(rubric.metrics.completeness).toBe(2);
  });
});

describe("heuristicRubric on abstentions", () => {
  const declines = { abstention: "full" as const, support: support(0, 0), groundedness: null };

  it("scores a declining answer by whether the answer was there to give", () => {
    const score = (overrides: Partial<OfflineMeasures>) => {
      const { accuracy, completeness } = heuristicRubric(
        measures({ ...declines, ...overrides }),
      ).metrics;
      return [accuracy, completeness];
    };
    expect(score({ ...withTruth, ground_truth_abstains: true })).toEqual([10, 8]);
    expect(score({ ...withTruth, ground_truth_in_contexts: 0.2 })).toEqual([9, 3]);
    expect(score({ ...withTruth, ground_truth_in_contexts: null })).toEqual([9, 3]);
    expect(score({ ...withTruth, ground_truth_in_contexts: 0.8 })).toEqual([4, 1]);
    expect(score({})).toEqual([9, 5]);
  });

  it("caps the completeness of a partial abstention at 7", () => {
    const rubric = heuristicRubric(measures({ abstention: "partial" }));
    expect(rubric.metrics.accuracy).toBe(10);
    expect(rubric.metrics.completeness).toBe(7);
    expect(rubric.reason).toContain("partly declines");
  });
});

describe("heuristicRubric without evidence", () => {
  it("leaves claims unverified at accuracy 3", () => {
    const rubric = heuristicRubric(measures({ groundedness: null, support: null }));
    expect(heuristicBasis(measures({ groundedness: null, support: null }))).toBe("none");
    expect(rubric.metrics.accuracy).toBe(3);
    expect(rubric.is_passing).toBe(false);
    expect(rubric.suggestion).toContain("contexts");
  });

  it("scores an empty answer 1 throughout", () => {
    const rubric = heuristicRubric(measures({ empty: true }));
    expect(rubric.metrics).toEqual({ accuracy: 1, completeness: 1, clarity: 1, weighted_score: 1 });
    expect(rubric.reason).toBe("Heuristic (no LLM): the answer is empty.");
    expect(wordMessage(rubric.reason_message, "zh")).toBe("启发式评判（未用 LLM）：回答为空。");
  });
});

describe("clarity", () => {
  it("starts at 9 and loses points for repetition, missing the question and length", () => {
    expect(heuristicRubric(measures({ repetition: 0.25 })).metrics.clarity).toBe(6);
    expect(heuristicRubric(measures({ repetition: 0.9 })).metrics.clarity).toBe(4);
    expect(
      heuristicRubric(measures({ answer_tokens: 12, question_overlap: 0 })).metrics.clarity,
    ).toBe(6);
    expect(
      heuristicRubric(measures({ answer_tokens: 5, question_overlap: 0 })).metrics.clarity,
    ).toBe(9);
    expect(heuristicRubric(measures({ answer_tokens: 201 })).metrics.clarity).toBe(8);
  });
});

describe("options", () => {
  it("uses the configured weights and pass threshold", () => {
    const m = measures({ support: support(10, 5) }); // accuracy 5.5, completeness 10, clarity 9
    const rubric = heuristicRubric(m, {
      weights: { accuracy: 1, completeness: 1, clarity: 0 },
      passMinAccuracy: 5,
    });
    expect(rubric.metrics.weighted_score).toBe(7.75);
    expect(rubric.is_passing).toBe(true);
    expect(heuristicRubric(m).metrics.weighted_score).toBe(7.55);
    expect(heuristicRubric(m).is_passing).toBe(false);
  });
});
