// The monitor's charts (issue 24 §3): a service's or collection's answers bucketed by minute, hour
// or day, each bucket beside the same bucket of the period before, read from the per-minute
// rollups (never the answers themselves), and totals broken down by a dimension.

import {
  type AnswerRollupSum,
  type Db,
  type JudgeRollupSum,
  LATENCY_BOUNDS_MS,
  readAnswerRollups,
  readJudgeRollups,
  type RollupGroup,
  type RollupScope,
} from "../store/index.js";

export const BUCKETS = { minute: 60, hour: 3_600, day: 86_400 } as const;
export type BucketName = keyof typeof BUCKETS;

/** Buckets shown when the caller gives no range: an hour of minutes, a day of hours, 30 days. */
export const DEFAULT_BUCKET_COUNT: Record<BucketName, number> = { minute: 60, hour: 24, day: 30 };

/** At most this many buckets in one read. */
export const MAX_BUCKETS = 1_500;

export interface SeriesSummary {
  count: number;
  /** Gate passes over answers gated (pass, partial, fail); null without any. */
  gate_pass_rate: number | null;
  feedback_up: number;
  feedback_down: number;
  /** Mean of the feedback scores given; null without any. */
  feedback_score: number | null;
  latency_mean_ms: number | null;
  /** The upper bound of the latency bucket holding the 95th percentile (null past the last). */
  latency_p95_ms: number | null;
  prompt_tokens: number;
  completion_tokens: number;
}

export interface SeriesPoint extends SeriesSummary {
  start: string;
}

export interface JudgeSeries {
  judge: string;
  /** Mean score per bucket (null where nothing was judged), aligned with the points. */
  current: (number | null)[];
  previous: (number | null)[];
  mean: { current: number | null; previous: number | null };
  judged: { current: number; previous: number };
}

export interface BreakdownRow {
  value: string;
  current: SeriesSummary;
  previous: SeriesSummary;
}

export interface MonitorSeries {
  bucket: BucketName;
  from: string;
  to: string;
  previous_from: string;
  current: SeriesPoint[];
  previous: SeriesPoint[];
  totals: { current: SeriesSummary; previous: SeriesSummary };
  judges: JudgeSeries[];
  breakdown: { by: string; rows: BreakdownRow[] };
}

export interface SeriesRequest {
  scope: RollupScope;
  bucket: BucketName;
  /** The end of the range (exclusive); rounded up to a bucket's end. Default now. */
  to?: Date;
  /** The start of the range; default DEFAULT_BUCKET_COUNT buckets before `to`. */
  from?: Date;
  /** What the breakdown table groups by (default model). */
  breakdown?: RollupGroup;
}

const EMPTY: AnswerRollupSum = {
  count: 0,
  gate_pass: 0,
  gate_partial: 0,
  gate_fail: 0,
  latency_count: 0,
  latency_sum: 0,
  latency_buckets: [],
  prompt_tokens: 0,
  completion_tokens: 0,
  feedback_up: 0,
  feedback_down: 0,
  feedback_scores: 0,
  feedback_score_sum: 0,
};

/** The derived numbers of a sum. Pure. */
export function summarize(sum: AnswerRollupSum): SeriesSummary {
  const gated = sum.gate_pass + sum.gate_partial + sum.gate_fail;
  let p95: number | null = null;
  if (sum.latency_count > 0) {
    const target = Math.ceil(sum.latency_count * 0.95);
    let seen = 0;
    for (let i = 0; i < sum.latency_buckets.length; i++) {
      seen += sum.latency_buckets[i] ?? 0;
      if (seen >= target) {
        p95 = LATENCY_BOUNDS_MS[i] ?? null;
        break;
      }
    }
  }
  return {
    count: sum.count,
    gate_pass_rate: gated > 0 ? sum.gate_pass / gated : null,
    feedback_up: sum.feedback_up,
    feedback_down: sum.feedback_down,
    feedback_score: sum.feedback_scores > 0 ? sum.feedback_score_sum / sum.feedback_scores : null,
    latency_mean_ms: sum.latency_count > 0 ? sum.latency_sum / sum.latency_count : null,
    latency_p95_ms: p95,
    prompt_tokens: sum.prompt_tokens,
    completion_tokens: sum.completion_tokens,
  };
}

/** Adds sums (totals of a period from its buckets). Pure. */
export function addSums(sums: readonly AnswerRollupSum[]): AnswerRollupSum {
  const total: AnswerRollupSum = { ...EMPTY, latency_buckets: [] };
  for (const sum of sums) {
    total.count += sum.count;
    total.gate_pass += sum.gate_pass;
    total.gate_partial += sum.gate_partial;
    total.gate_fail += sum.gate_fail;
    total.latency_count += sum.latency_count;
    total.latency_sum += sum.latency_sum;
    sum.latency_buckets.forEach((n, i) => {
      total.latency_buckets[i] = (total.latency_buckets[i] ?? 0) + n;
    });
    total.prompt_tokens += sum.prompt_tokens;
    total.completion_tokens += sum.completion_tokens;
    total.feedback_up += sum.feedback_up;
    total.feedback_down += sum.feedback_down;
    total.feedback_scores += sum.feedback_scores;
    total.feedback_score_sum += sum.feedback_score_sum;
  }
  return total;
}

/** Every bucket of [from, to), empty ones included, in order. Pure. */
export function fillBuckets(
  sums: readonly AnswerRollupSum[],
  from: Date,
  count: number,
  seconds: number,
): SeriesPoint[] {
  const byStart = new Map(sums.map((sum) => [sum.bucket?.getTime(), sum]));
  return Array.from({ length: count }, (_, i) => {
    const start = new Date(from.getTime() + i * seconds * 1000);
    return { start: start.toISOString(), ...summarize(byStart.get(start.getTime()) ?? EMPTY) };
  });
}

function judgeMeans(
  sums: readonly JudgeRollupSum[],
  judge: string,
  from: Date,
  count: number,
  seconds: number,
): { points: (number | null)[]; mean: number | null; judged: number } {
  const mine = sums.filter((sum) => sum.judge === judge);
  const byStart = new Map(mine.map((sum) => [sum.bucket?.getTime(), sum]));
  const points = Array.from({ length: count }, (_, i) => {
    const sum = byStart.get(from.getTime() + i * seconds * 1000);
    return sum && sum.count > 0 ? sum.score_sum / sum.count : null;
  });
  const judged = mine.reduce((n, sum) => n + sum.count, 0);
  const total = mine.reduce((n, sum) => n + sum.score_sum, 0);
  return { points, mean: judged > 0 ? total / judged : null, judged };
}

/** The range a request covers, aligned to whole buckets (UTC), and its previous period. */
export function seriesRange(
  request: Pick<SeriesRequest, "bucket" | "from" | "to">,
  now = new Date(),
): { from: Date; to: Date; previousFrom: Date; count: number; seconds: number } {
  const seconds = BUCKETS[request.bucket];
  const ms = seconds * 1000;
  const to = new Date(Math.ceil((request.to ?? now).getTime() / ms) * ms);
  const from = request.from
    ? new Date(Math.floor(request.from.getTime() / ms) * ms)
    : new Date(to.getTime() - DEFAULT_BUCKET_COUNT[request.bucket] * ms);
  const count = Math.max(1, Math.round((to.getTime() - from.getTime()) / ms));
  return { from, to, previousFrom: new Date(from.getTime() - count * ms), count, seconds };
}

function groupName(group: RollupGroup): string {
  return typeof group === "string" ? group : `metadata.${group.meta}`;
}

export async function readMonitorSeries(
  db: Db,
  workspaceId: string,
  request: SeriesRequest,
  now = new Date(),
): Promise<MonitorSeries> {
  const { from, to, previousFrom, count, seconds } = seriesRange(request, now);
  const breakdown = request.breakdown ?? "model";
  const base = { scope: request.scope, bucketSeconds: seconds };
  const [current, previous, judgesNow, judgesBefore, groupsNow, groupsBefore] = await Promise.all([
    readAnswerRollups(db, workspaceId, { ...base, from, to }),
    readAnswerRollups(db, workspaceId, { ...base, from: previousFrom, to: from }),
    readJudgeRollups(db, workspaceId, { ...base, from, to }),
    readJudgeRollups(db, workspaceId, { ...base, from: previousFrom, to: from }),
    readAnswerRollups(db, workspaceId, { scope: request.scope, from, to, group: breakdown }),
    readAnswerRollups(db, workspaceId, {
      scope: request.scope,
      from: previousFrom,
      to: from,
      group: breakdown,
    }),
  ]);
  const judgeNames = [...new Set([...judgesNow, ...judgesBefore].map((sum) => sum.judge))].sort();
  const before = new Map(groupsBefore.map((sum) => [sum.group ?? "", sum]));
  const values = [...new Set([...groupsNow, ...groupsBefore].map((sum) => sum.group ?? ""))];
  const now_ = new Map(groupsNow.map((sum) => [sum.group ?? "", sum]));
  return {
    bucket: request.bucket,
    from: from.toISOString(),
    to: to.toISOString(),
    previous_from: previousFrom.toISOString(),
    current: fillBuckets(current, from, count, seconds),
    previous: fillBuckets(previous, previousFrom, count, seconds),
    totals: {
      current: summarize(addSums(current)),
      previous: summarize(addSums(previous)),
    },
    judges: judgeNames.map((judge) => {
      const a = judgeMeans(judgesNow, judge, from, count, seconds);
      const b = judgeMeans(judgesBefore, judge, previousFrom, count, seconds);
      return {
        judge,
        current: a.points,
        previous: b.points,
        mean: { current: a.mean, previous: b.mean },
        judged: { current: a.judged, previous: b.judged },
      };
    }),
    breakdown: {
      by: groupName(breakdown),
      rows: values
        .map((value) => ({
          value,
          current: summarize(now_.get(value) ?? EMPTY),
          previous: summarize(before.get(value) ?? EMPTY),
        }))
        .sort((a, b) => b.current.count - a.current.count || a.value.localeCompare(b.value)),
    },
  };
}
