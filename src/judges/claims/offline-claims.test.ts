import { describe, expect, it } from "vitest";
import { JudgeInputError } from "../errors.js";
import { OFFLINE_APPROXIMATION } from "./verdict.js";
import { offlineClaims, sentenceClaims } from "./offline-claims.js";

const input = {
  question: "How long is the Nile, and where does it flow?",
  ground_truth: "The Nile is 6,650 km long. It flows into the Mediterranean Sea.",
  answer: "The Nile is 6,650 km long. The Nile flows through Uganda.",
  contexts: [
    "The Nile is 6,650 km long and flows north.",
    {
      content: "Uganda is a country in East Africa. The Nile flows through Uganda.",
      node_id: "n2",
    },
  ],
};

describe("sentenceClaims", () => {
  it("takes each stating sentence as a claim, questions and empty sentences left out", () => {
    expect(sentenceClaims("The Nile is long. Is it? It flows north!")).toEqual([
      "The Nile is long.",
      "It flows north!",
    ]);
    expect(sentenceClaims("")).toEqual([]);
  });
});

describe("offlineClaims: sentences as claims, word support as entailment", () => {
  const result = offlineClaims(input);

  it("says in its verdict and model that it approximates", () => {
    expect(result.verdict.approximate).toBe(OFFLINE_APPROXIMATION);
    expect(result.model).toBe("offline-sentences");
    expect(result.calls).toEqual([]);
  });

  it("checks each sentence against the other text and each chunk", () => {
    expect(result.verdict.response_claims).toEqual([
      {
        text: "The Nile is 6,650 km long.",
        ground_truth: "Entailment",
        chunks: ["Entailment", "Neutral"],
      },
      {
        text: "The Nile flows through Uganda.",
        ground_truth: "Neutral",
        chunks: ["Neutral", "Entailment"],
      },
    ]);
    expect(
      result.verdict.ground_truth_claims.map((claim) => [claim.response, claim.chunks]),
    ).toEqual([
      ["Entailment", ["Entailment", "Neutral"]],
      ["Neutral", ["Neutral", "Neutral"]],
    ]);
  });

  it("computes RAGChecker's metrics from those verdicts", () => {
    expect(result.verdict.metrics).toMatchObject({
      precision: 1 / 2,
      recall: 1 / 2,
      f1: 1 / 2,
      claim_recall: 1 / 2,
      context_precision: 1 / 2,
      context_utilization: 1,
      noise_sensitivity_in_relevant: 0,
      noise_sensitivity_in_irrelevant: 1 / 2,
      hallucination: 0,
      faithfulness: 1,
    });
    expect(result).toMatchObject({ score: 0.5, raw_score: 0.5, passed: true });
  });

  it("diagnoses the missed ground-truth sentence and the answer's sentence from chunk 2", () => {
    expect(result.verdict.diagnosis).toEqual({
      missed: [{ claim: "It flows into the Mediterranean Sea.", chunk: null }],
      unsupported: [{ claim: "The Nile flows through Uganda.", contradicts: false, chunk: 2 }],
    });
    expect(result.verdict.chunks).toEqual([{ relevant: true }, { node_id: "n2", relevant: false }]);
  });

  it("does not take a figure for another one: 18 km is not entailed by 42 km", () => {
    const result = offlineClaims({
      question: "How long is the tram line?",
      answer: "It is 42 km long.",
      ground_truth: "18 km",
      contexts: ["The tram line runs 18 km."],
    });
    expect(result.verdict.ground_truth_claims).toEqual([
      { text: "18 km", response: "Neutral", chunks: ["Entailment"] },
    ]);
    expect(result.verdict.diagnosis.missed).toEqual([{ claim: "18 km", chunk: 1 }]);
  });

  it("refuses an input without a ground truth, naming the field", () => {
    const { ground_truth: _omitted, ...withoutReference } = input;
    expect(() => offlineClaims(withoutReference)).toThrow(JudgeInputError);
    expect(() => offlineClaims(withoutReference)).toThrow(/ground_truth/);
  });
});
