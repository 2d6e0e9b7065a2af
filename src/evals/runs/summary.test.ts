import { describe, expect, it } from "vitest";
import { progressOf, runCostOf, type SummaryRow, summarizeResults } from "./summary.js";
import { offlineClaims, reportClaimMetrics } from "../../judges/index.js";

const row = (patch: Partial<SummaryRow>): SummaryRow => ({
  status: "SCORED",
  question_type: "FACTUAL",
  score: 0.5,
  passed: true,
  gate_status: "pass",
  judges: {},
  latency_ms: 10,
  usage: null,
  ...patch,
});

const offline = (f1: number, passed: boolean) => ({
  offline: {
    outcome: "ok",
    defaulted: false,
    score: f1,
    raw_score: f1 * 10,
    passed,
    verdict: {
      f1,
      exact_match: f1 === 1 ? 1 : 0,
      rouge_l: f1,
      groundedness: 1,
      metrics: { accuracy: 8 },
    },
  },
});

describe("summarizeResults", () => {
  it("averages over scored items only: errors are counted, never scored as zeros", () => {
    const summary = summarizeResults([
      row({ score: 1, judges: offline(1, true) }),
      row({ score: 0.5, passed: false, judges: offline(0.5, false) }),
      row({ status: "BOT_ERROR", score: null, passed: null, gate_status: null }),
      row({ status: "JUDGE_ERROR", score: null, passed: null, question_type: "INFERENTIAL" }),
      row({ status: "PENDING", score: null, passed: null, latency_ms: null }),
    ]);
    expect(summary.average_score).toBe(0.75);
    expect(summary.pass_rate).toBe(0.5);
    expect(summary.errors).toEqual({ bot: 1, judge: 1 });
    expect(summary).toMatchObject({ total: 5, completed: 4, pending: 1, scored: 2 });
    expect(summary.judges.offline?.metrics).toMatchObject({
      f1: 0.75,
      exact_match: 0.5,
      accuracy: 8,
    });
    expect(summary.judges.offline?.distribution).toEqual({ "10": 1, "5": 1 });
    expect(summary.by_question_type.FACTUAL).toMatchObject({ total: 4, scored: 2, pass_rate: 0.5 });
    expect(summary.by_question_type.INFERENTIAL).toMatchObject({
      total: 1,
      scored: 0,
      average_score: null,
    });
  });

  it("buckets the baseline judges by their own scales: tenths of a share, pass or fail", () => {
    const baselines = (precision: number, contains: boolean) => ({
      token_precision: {
        outcome: "ok",
        score: precision,
        raw_score: precision,
        passed: precision >= 0.8,
        verdict: { token_precision: precision },
      },
      contains_reference: {
        outcome: "ok",
        score: contains ? 1 : 0,
        raw_score: contains ? 1 : 0,
        passed: contains,
        verdict: { contains_reference: contains },
      },
    });
    const summary = summarizeResults([
      row({ judges: baselines(0.85, true) }),
      row({ judges: baselines(1, false) }),
      row({ judges: baselines(0.25, true) }),
    ]);
    expect(summary.judges.token_precision?.distribution).toEqual({ "0.8": 1, "0.9": 1, "0.2": 1 });
    expect(summary.judges.token_precision?.metrics.token_precision).toBeCloseTo(0.7, 12);
    expect(summary.judges.contains_reference?.distribution).toEqual({ passed: 2, failed: 1 });
  });

  it("reports the claims judges' RAGChecker metrics over the run, with the approximation's words", () => {
    const judged = [
      offlineClaims({
        question: "How long is the Nile?",
        answer: "The Nile is 6,650 km long. It flows through Uganda.",
        ground_truth: "The Nile is 6,650 km long.",
        contexts: ["The Nile is 6,650 km long."],
      }),
      offlineClaims({
        question: "Where does the Nile end?",
        answer: "In the Red Sea.",
        ground_truth: "The Nile flows into the Mediterranean Sea.",
        contexts: ["The Nile flows into the Mediterranean Sea."],
      }),
    ];
    const summary = summarizeResults(
      judged.map((result) => row({ judges: { claims_offline: result } })),
    );
    const block = summary.judges.claims_offline;
    expect(block?.claim_metrics).toEqual(
      reportClaimMetrics(judged.map((result) => result.verdict.metrics)),
    );
    // The first answer states the reference (recall 1), the second does not (0): 50%.
    expect(block?.claim_metrics?.overall.recall).toBe(50);
    expect(block?.approximate).toBe("approximate: sentences as claims, offline entailment");
  });

  it("leaves a defaulted judge result out of its judge's means", () => {
    const defaulted = {
      reference: { outcome: "judge_error", defaulted: true, score: 0, raw_score: 1, passed: false },
    };
    const ok = {
      reference: {
        outcome: "ok",
        defaulted: false,
        score: 1,
        raw_score: 5,
        passed: true,
        verdict: { score: 5 },
      },
    };
    const summary = summarizeResults([row({ judges: ok }), row({ judges: defaulted })]);
    expect(summary.judges.reference).toMatchObject({ count: 1, mean_raw: 5, pass_rate: 1 });
    expect(summary.judges.reference?.distribution).toEqual({ "5": 1 });
  });

  it("has no averages when nothing was scored", () => {
    const summary = summarizeResults([row({ status: "BOT_ERROR", score: null })]);
    expect(summary.average_score).toBeNull();
    expect(summary.pass_rate).toBeNull();
  });
});

describe("summarizeResults: retrieval", () => {
  const metrics = (k: number, values: number[]) => ({
    k,
    hit_rate: values[0],
    recall: values[1],
    precision: values[2],
    mrr: values[3],
    ndcg: values[4],
  });

  it("averages the results that carry retrieval metrics, and is null when none does", () => {
    const summary = summarizeResults([
      row({ retrieval: metrics(5, [1, 1, 0.4, 1, 0.9]) }),
      row({ retrieval: metrics(5, [0, 0, 0, 0.25, 0]) }),
      row({ retrieval: null }),
      row({ status: "BOT_ERROR" }),
    ]);
    expect(summary.retrieval).toEqual({
      count: 2,
      k: 5,
      means: { hit_rate: 0.5, recall: 0.5, precision: 0.2, mrr: 0.625, ndcg: 0.45 },
    });
    expect(summarizeResults([row({})]).retrieval).toBeNull();
    // Results cut at different k (never one run's) have no one k to name.
    const mixed = summarizeResults([
      row({ retrieval: metrics(5, [1, 1, 1, 1, 1]) }),
      row({ retrieval: metrics(3, [1, 1, 1, 1, 1]) }),
    ]);
    expect(mixed.retrieval?.k).toBeNull();
  });
});

describe("progressOf", () => {
  const started = new Date("2026-01-01T00:00:00Z");
  it("estimates the time left from the rate so far", () => {
    const progress = progressOf(
      { completed_questions: 25, total_questions: 100, started_at: started, status: "RUNNING" },
      new Date("2026-01-01T00:00:10Z"),
    );
    expect(progress).toEqual({ completed: 25, total: 100, percent: 25, eta_seconds: 30 });
  });
  it("has no ETA before the first result or once the run stopped", () => {
    const base = { total_questions: 10, started_at: started };
    expect(
      progressOf({ ...base, completed_questions: 0, status: "RUNNING" }).eta_seconds,
    ).toBeNull();
    expect(
      progressOf({ ...base, completed_questions: 5, status: "PAUSED" }).eta_seconds,
    ).toBeNull();
  });
});

describe("runCostOf", () => {
  const line = (
    part: "bot" | "judge",
    model: string,
    cost: number | null,
    extra: { judge?: string; role?: string } = {},
  ) => ({
    part,
    role: extra.role ?? (part === "bot" ? "generator" : "judge"),
    ...(extra.judge ? { judge: extra.judge } : {}),
    model,
    calls: 1,
    prompt_tokens: 100,
    cached_tokens: 10,
    completion_tokens: 20,
    cost_usd: cost,
  });

  it("sums the run, the bot, each judge and per question; unpriced models are named, not priced", () => {
    const cost = runCostOf([
      {
        models: [
          line("bot", "gpt-4o", 0.002),
          line("judge", "gpt-4o-mini", 0.001, { judge: "reference" }),
        ],
      },
      {
        models: [
          line("bot", "house-llm", null),
          line("judge", "gpt-4o-mini", 0.003, { judge: "reference" }),
        ],
      },
      // A row from before costs were kept, and one with no answer: counted as nothing.
      { bot: { prompt_tokens: 5, completion_tokens: 5, calls: 1 } },
      null,
    ]);
    expect(cost.total.cost_usd).toBeCloseTo(0.006, 12);
    expect(cost.total.prompt_tokens).toBe(400);
    expect(cost.total.cached_tokens).toBe(40);
    expect(cost.total.unpriced_models).toEqual(["house-llm"]);
    expect(cost.bot).toMatchObject({ cost_usd: 0.002, unpriced_models: ["house-llm"] });
    expect(Object.keys(cost.judges)).toEqual(["reference"]);
    expect(cost.judges.reference?.cost_usd).toBeCloseTo(0.004, 12);
    expect(cost.per_question.mean_usd).toBeCloseTo(0.003, 12);
    expect(cost.per_question.max_usd).toBeCloseTo(0.003, 12);
    expect(cost.by_model).toEqual([
      expect.objectContaining({ part: "bot", model: "gpt-4o", calls: 1, cost_usd: 0.002 }),
      expect.objectContaining({
        part: "judge",
        judge: "reference",
        model: "gpt-4o-mini",
        calls: 2,
      }),
      expect.objectContaining({ part: "bot", model: "house-llm", cost_usd: null }),
    ]);
    expect(cost.by_model[1]?.cost_usd).toBeCloseTo(0.004, 12);
  });

  it("is zero with no price unknown when no LLM was called", () => {
    expect(runCostOf([null, {}])).toEqual({
      total: {
        cost_usd: 0,
        prompt_tokens: 0,
        cached_tokens: 0,
        completion_tokens: 0,
        unpriced_models: [],
      },
      bot: {
        cost_usd: 0,
        prompt_tokens: 0,
        cached_tokens: 0,
        completion_tokens: 0,
        unpriced_models: [],
      },
      judges: {},
      by_model: [],
      per_question: { mean_usd: null, max_usd: null },
    });
  });
});
