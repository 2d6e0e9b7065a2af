import { LLM_DEFAULTS } from "../llm/index.js";
import type { JudgeResult, JudgeScore } from "./result.js";
import { round } from "./result.js";
import { standardDeviation } from "./summary.js";

export interface Agreement {
  /** Trials run. */
  n: number;
  /** Trials that count (scored, not judge_error). */
  counted: number;
  /** pass^N for this item: every counted trial passed; null when none counted. */
  pass_all: boolean | null;
  /** Share of counted trials that passed. */
  pass_rate: number | null;
  /** All counted trials gave the same pass/fail. */
  unanimous: boolean | null;
  score_mean: number | null;
  /** Population standard deviation of `score` ([0, 1]) over counted trials. */
  score_stddev: number | null;
  /** The same on the judge's own scale (`raw_score`). */
  raw_score_stddev: number | null;
}

export interface RepeatedJudgeResult<R extends JudgeResult> {
  trials: R[];
  agreement: Agreement;
}

/**
 * Runs a judge `repeat` times with seeds seed, seed+1, ... (seed: the args' or 42) and reports how
 * much the trials agree. Trial 0 is the ordinary single run, so it shares its cache entry. Trials
 * run concurrently; the provider's limiter keeps the server within its limit.
 */
export async function repeatJudge<A extends { seed?: number }, R extends JudgeResult>(
  judge: (args: A) => Promise<R>,
  args: A,
  repeat: number,
): Promise<RepeatedJudgeResult<R>> {
  if (!Number.isInteger(repeat) || repeat < 1) {
    throw new RangeError(`repeat: expected an integer >= 1, got ${repeat}`);
  }
  const base = args.seed ?? LLM_DEFAULTS.seed;
  const trials = await Promise.all(
    Array.from({ length: repeat }, (_, i) => judge({ ...args, seed: base + i })),
  );
  return { trials, agreement: agreementOf(trials) };
}

export function agreementOf(trials: readonly JudgeResult[]): Agreement {
  const counted = trials.filter((t): t is JudgeScore => t.outcome === "ok");
  const passes = counted.filter((t) => t.passed).length;
  const none = counted.length === 0;
  const stddev = (values: number[]) => {
    const value = standardDeviation(values);
    return value === null ? null : round(value, 4);
  };
  return {
    n: trials.length,
    counted: counted.length,
    pass_all: none ? null : passes === counted.length,
    pass_rate: none ? null : round(passes / counted.length, 4),
    unanimous: none ? null : passes === 0 || passes === counted.length,
    score_mean: none ? null : round(counted.reduce((a, t) => a + t.score, 0) / counted.length, 4),
    score_stddev: stddev(counted.map((t) => t.score)),
    raw_score_stddev: stddev(counted.map((t) => t.raw_score)),
  };
}
