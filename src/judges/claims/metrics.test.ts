import { describe, expect, it } from "vitest";
import {
  type ClaimChecks,
  claimMetrics,
  numpyRound1,
  numpySum,
  reportClaimMetrics,
} from "./metrics.js";

const E = "Entailment" as const;
const N = "Neutral" as const;
const C = "Contradiction" as const;

// A hand-made answer: five response claims R1-R5, three ground-truth claims G1-G3, two chunks
// (C1 holds G1 and G2; C2 holds no ground-truth claim).
//   R1 right, from C1          R2 right, from no chunk (self-knowledge)
//   R3 wrong, from C2 (noise in an irrelevant chunk)
//   R4 contradicts the ground truth, from C1 and C2 (noise in a relevant chunk)
//   R5 wrong, from no chunk (hallucination)
//   G1 stated by the response, in C1    G2 missed, though in C1    G3 stated, in no chunk
const handMade: ClaimChecks = {
  answer2response: [E, E, N, C, N],
  response2answer: [E, N, E],
  retrieved2response: [
    [E, N],
    [N, N],
    [N, E],
    [E, E],
    [N, C],
  ],
  retrieved2answer: [
    [E, N],
    [E, N],
    [N, N],
  ],
};

describe("claimMetrics on a hand-made answer", () => {
  const metrics = claimMetrics(handMade);

  it("overall: precision 2/5 response claims right, recall 2/3 ground-truth claims stated", () => {
    expect(metrics.precision).toBe(2 / 5);
    expect(metrics.recall).toBe(2 / 3);
    expect(metrics.f1).toBeCloseTo((2 * 0.4 * (2 / 3)) / (0.4 + 2 / 3), 15);
  });

  it("retriever: G1 and G2 are in a chunk (2/3); C1 is relevant, C2 is not (1/2)", () => {
    expect(metrics.claim_recall).toBe(2 / 3);
    expect(metrics.context_precision).toBe(1 / 2);
  });

  it("generator: of G1 and G2 (retrieved) the response states G1 only", () => {
    expect(metrics.context_utilization).toBe(1 / 2);
  });

  it("noise: R4 wrong from a relevant chunk, R3 wrong from an irrelevant one only", () => {
    expect(metrics.noise_sensitivity_in_relevant).toBe(1 / 5);
    expect(metrics.noise_sensitivity_in_irrelevant).toBe(1 / 5);
  });

  it("R5 is hallucination, R2 self-knowledge; R1, R3 and R4 are faithful to a chunk", () => {
    expect(metrics.hallucination).toBe(1 / 5);
    expect(metrics.self_knowledge).toBe(1 / 5);
    expect(metrics.faithfulness).toBe(3 / 5);
  });

  it("a contradiction counts as not entailed, as a neutral verdict does", () => {
    const neutral = claimMetrics({ ...handMade, answer2response: [E, E, N, N, N] });
    expect(neutral).toEqual(metrics);
  });
});

describe("claimMetrics where something is missing, as RAGChecker treats it", () => {
  it("no response claims: precision 0 and every response-side metric 0", () => {
    const metrics = claimMetrics({
      answer2response: [],
      response2answer: [N, N],
      retrieved2response: [],
      retrieved2answer: [
        [E, N],
        [N, N],
      ],
    });
    expect(metrics).toMatchObject({
      precision: 0,
      recall: 0,
      f1: 0,
      claim_recall: 1 / 2,
      context_precision: 1 / 2,
      context_utilization: 0,
      hallucination: 0,
      faithfulness: 0,
    });
  });

  it("no chunks: nothing recalled, nothing faithful, precision and recall still counted", () => {
    const metrics = claimMetrics({
      answer2response: [E, N],
      response2answer: [E],
      retrieved2response: [[], []],
      retrieved2answer: [[]],
    });
    expect(metrics).toMatchObject({
      precision: 1 / 2,
      recall: 1,
      claim_recall: 0,
      context_precision: 0,
      context_utilization: 0,
      noise_sensitivity_in_relevant: 0,
      hallucination: 0,
      self_knowledge: 0,
      faithfulness: 0,
    });
  });
});

describe("the report's arithmetic is numpy's", () => {
  it("sums as numpy's pairwise sum does (values from numpy 2.4)", () => {
    // np.sum([1e16] + [1.0] * 8) and over 300 values: a plain left-to-right sum gives 1e16 both times.
    expect(numpySum([1e16, ...Array<number>(8).fill(1)])).toBe(1.0000000000000008e16);
    expect(numpySum([1e16, ...Array<number>(299).fill(1)])).toBe(1.000000000000029e16);
    expect(numpySum(Array.from({ length: 300 }, (_, i) => 1 / (i + 1)))).toBe(6.282663880299504);
  });

  it("rounds as np.round(x, 1): x × 10 to the even neighbour, not Python's round", () => {
    expect(numpyRound1(0.15)).toBe(0.2); // Python's round(0.15, 1) gives 0.1
    expect(numpyRound1(0.25)).toBe(0.2);
    expect(numpyRound1(0.35)).toBe(0.4);
    expect(numpyRound1(68.34)).toBe(68.3);
  });

  it("reports each group's means × 100 to one decimal; no answers, no report", () => {
    const report = reportClaimMetrics([claimMetrics(handMade), claimMetrics(handMade)]);
    expect(report?.overall.precision).toBe(40);
    expect(report?.retriever.claim_recall).toBe(66.7);
    expect(report?.generator.faithfulness).toBe(60);
    expect(reportClaimMetrics([])).toBeNull();
  });
});
