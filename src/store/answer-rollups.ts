// Per-minute rollups of production answers (issue 24 §3): written in the same statement as the
// answers, feedback or judgments they sum, so a crash never counts one without the other; read by
// bucket for the monitor's charts. Retention drops answers, never these.

import { type SQL, sql } from "drizzle-orm";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";

/** Upper bounds of the latency buckets (ms); one more bucket holds everything slower. */
export const LATENCY_BOUNDS_MS = [100, 250, 500, 1_000, 2_500, 5_000, 10_000] as const;

/** Longest metadata value kept as a breakdown value. */
const META_VALUE_CHARS = 200;

/**
 * The dimensions of each row of CTE `source` (columns workspace_id, received_at, service, collection,
 * model, metadata, plus `extra`), at both grains (its minute and its hour): one row for all
 * answers (meta_key '') and one per breakdown key the answer's metadata holds.
 */
export function rollupDimensions(
  source: string,
  extra: readonly string[],
  keys: readonly string[],
): SQL {
  const cols = ["workspace_id", "received_at", "service", "collection", "model", ...extra]
    .map((c) => `s.${c}`)
    .join(", ");
  const base = sql.raw(
    `select ${cols}, g.grain,
       to_timestamp(floor(extract(epoch from s.received_at) / g.grain) * g.grain) as minute,
       coalesce(s.service, '') as d_service,
       coalesce(s.collection, '') as d_collection, coalesce(s.model, '') as d_model`,
  );
  const from = sql.raw(`${source} s cross join (values (60), (3600)) g(grain)`);
  const all = sql`${base}, '' as meta_key, '' as meta_value from ${from}`;
  if (keys.length === 0) return all;
  return sql`${all} union all
    ${base}, m.key as meta_key, left(m.value, ${sql.raw(String(META_VALUE_CHARS))}) as meta_value
    from ${from} cross join lateral jsonb_each_text(s.metadata) m
    where m.key = any(${`{${keys.map((k) => JSON.stringify(k)).join(",")}}`}::text[])`;
}

const DIMENSION_COLUMNS =
  "workspace_id, grain, minute, service, collection, model, meta_key, meta_value";
const DIMENSION_FIELDS =
  "workspace_id, grain, minute, d_service, d_collection, d_model, meta_key, meta_value";
const DIMENSIONS_OF_D =
  "d.workspace_id, d.grain, d.minute, d.d_service, d.d_collection, d.d_model, d.meta_key, d.meta_value";
const EMPTY_BUCKETS = `array_fill(0, array[${LATENCY_BOUNDS_MS.length + 1}])`;

function latencyBucketsOf(column: string): string {
  const edges = LATENCY_BOUNDS_MS.map((bound, i) => {
    const low = i === 0 ? "" : `${column} >= ${LATENCY_BOUNDS_MS[i - 1]} and `;
    return `count(*) filter (where ${low}${column} < ${bound})::int`;
  });
  edges.push(`count(*) filter (where ${column} >= ${LATENCY_BOUNDS_MS.at(-1)})::int`);
  return `array[${edges.join(", ")}]`;
}

/**
 * The CTE that adds the answers of CTE `stored` (answer_records columns) to the rollups. To be
 * put in the same statement as their insert.
 */
export function rollupAnswersCte(stored: string, keys: readonly string[]): SQL {
  const dims = rollupDimensions(
    stored,
    ["gate_status", "latency_ms", "prompt_tokens", "completion_tokens"],
    keys,
  );
  return sql`rollup_dims as (${dims}),
    rolled_up as (
      insert into answer_rollups (${sql.raw(DIMENSION_COLUMNS)}, count, gate_pass, gate_partial,
        gate_fail, latency_count, latency_sum, latency_buckets, prompt_tokens, completion_tokens)
      select ${sql.raw(DIMENSION_FIELDS)}, count(*)::int,
        (count(*) filter (where gate_status = 'pass'))::int,
        (count(*) filter (where gate_status = 'partial'))::int,
        (count(*) filter (where gate_status = 'fail'))::int,
        count(latency_ms)::int, coalesce(sum(latency_ms), 0), ${sql.raw(latencyBucketsOf("latency_ms"))},
        coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0)
      from rollup_dims group by ${sql.raw(DIMENSION_FIELDS)}
      on conflict (${sql.raw(DIMENSION_COLUMNS)}) do update set
        count = answer_rollups.count + excluded.count,
        gate_pass = answer_rollups.gate_pass + excluded.gate_pass,
        gate_partial = answer_rollups.gate_partial + excluded.gate_partial,
        gate_fail = answer_rollups.gate_fail + excluded.gate_fail,
        latency_count = answer_rollups.latency_count + excluded.latency_count,
        latency_sum = answer_rollups.latency_sum + excluded.latency_sum,
        latency_buckets = (select array_agg(a + b order by i)
          from unnest(answer_rollups.latency_buckets, excluded.latency_buckets)
            with ordinality as t(a, b, i)),
        prompt_tokens = answer_rollups.prompt_tokens + excluded.prompt_tokens,
        completion_tokens = answer_rollups.completion_tokens + excluded.completion_tokens
    )`;
}

/**
 * The CTE that adds one feedback (CTE `feedback`: thumb, score) on the answer of CTE `answer` to
 * the rollups of the answer's minute.
 */
export function rollupFeedbackCte(answer: string, feedback: string, keys: readonly string[]): SQL {
  return sql`feedback_dims as (${rollupDimensions(answer, [], keys)}),
    feedback_rolled as (
      insert into answer_rollups (${sql.raw(DIMENSION_COLUMNS)}, latency_buckets, feedback_up,
        feedback_down, feedback_scores, feedback_score_sum)
      select ${sql.raw(DIMENSIONS_OF_D)}, ${sql.raw(EMPTY_BUCKETS)},
        coalesce(f.thumb = 'up', false)::int, coalesce(f.thumb = 'down', false)::int, (f.score is not null)::int,
        coalesce(f.score, 0)
      from feedback_dims d cross join ${sql.raw(feedback)} f
      on conflict (${sql.raw(DIMENSION_COLUMNS)}) do update set
        feedback_up = answer_rollups.feedback_up + excluded.feedback_up,
        feedback_down = answer_rollups.feedback_down + excluded.feedback_down,
        feedback_scores = answer_rollups.feedback_scores + excluded.feedback_scores,
        feedback_score_sum = answer_rollups.feedback_score_sum + excluded.feedback_score_sum
    )`;
}

/**
 * The CTE that adds a judgment's scores (CTE `scores`: judge, score, passed) on the answer of
 * CTE `answer` to the judge rollups of the answer's minute.
 */
export function rollupJudgeScoresCte(answer: string, scores: string, keys: readonly string[]): SQL {
  return sql`judge_dims as (${rollupDimensions(answer, [], keys)}),
    judge_rolled as (
      insert into judge_rollups (${sql.raw(DIMENSION_COLUMNS)}, judge, count, score_sum, passed)
      select ${sql.raw(DIMENSIONS_OF_D)}, j.judge, 1, j.score, (j.passed is true)::int
      from judge_dims d cross join ${sql.raw(scores)} j
      on conflict (${sql.raw(DIMENSION_COLUMNS)}, judge) do update set
        count = judge_rollups.count + excluded.count,
        score_sum = judge_rollups.score_sum + excluded.score_sum,
        passed = judge_rollups.passed + excluded.passed
    )`;
}

/** Which answers a read covers: all of a user's, or one service's, or one collection's. */
export interface RollupScope {
  service?: string;
  collection?: string;
}

/** What a series or breakdown groups by, besides time. */
export type RollupGroup = "model" | "collection" | "service" | { meta: string };

export interface RollupRead {
  scope: RollupScope;
  from: Date;
  to: Date;
  /** Bucket width in seconds (60, 3600, 86400); omitted for one total per group. */
  bucketSeconds?: number;
  group?: RollupGroup;
}

export interface AnswerRollupSum {
  /** The bucket's start; absent for totals. */
  bucket?: Date;
  /** The group's value ('' for none); absent without a group. */
  group?: string;
  count: number;
  gate_pass: number;
  gate_partial: number;
  gate_fail: number;
  latency_count: number;
  latency_sum: number;
  latency_buckets: number[];
  prompt_tokens: number;
  completion_tokens: number;
  feedback_up: number;
  feedback_down: number;
  feedback_scores: number;
  feedback_score_sum: number;
}

export interface JudgeRollupSum {
  bucket?: Date;
  group?: string;
  judge: string;
  count: number;
  score_sum: number;
  passed: number;
}

function groupColumn(group: RollupGroup | undefined): string | undefined {
  if (group === undefined) return undefined;
  return typeof group === "string" ? group : "meta_value";
}

const HOUR_MS = 3_600_000;

/** Hours when the read's bounds and buckets are whole hours (60 times fewer rows), else minutes. */
export function grainOf(read: Pick<RollupRead, "from" | "to" | "bucketSeconds">): 60 | 3600 {
  const whole = (ms: number) => ms % HOUR_MS === 0;
  const bucketOk = read.bucketSeconds === undefined || (read.bucketSeconds * 1000) % HOUR_MS === 0;
  return whole(read.from.getTime()) && whole(read.to.getTime()) && bucketOk ? 3600 : 60;
}

function readConditions(workspaceId: string, read: RollupRead): SQL {
  const parts = [
    sql`workspace_id = ${workspaceId}`,
    sql`grain = ${grainOf(read)}`,
    sql`minute >= ${read.from.toISOString()}::timestamptz`,
    sql`minute < ${read.to.toISOString()}::timestamptz`,
    typeof read.group === "object" ? sql`meta_key = ${read.group.meta}` : sql`meta_key = ''`,
  ];
  if (read.scope.service !== undefined) parts.push(sql`service = ${read.scope.service}`);
  if (read.scope.collection !== undefined) parts.push(sql`collection = ${read.scope.collection}`);
  return sql.join(parts, sql` and `);
}

function selectKeys(read: RollupRead): { select: SQL; groupBy: SQL } {
  const keys: SQL[] = [];
  if (read.bucketSeconds !== undefined) {
    keys.push(
      sql`date_bin(${`${read.bucketSeconds} seconds`}::interval, minute, timestamptz '2000-01-01 00:00:00+00') as bucket`,
    );
  }
  const column = groupColumn(read.group);
  if (column) keys.push(sql`${sql.raw(column)} as "group"`);
  if (keys.length === 0) return { select: sql`1 as one`, groupBy: sql`1` };
  const positions = keys.map((_, i) => String(i + 1)).join(", ");
  return { select: sql.join(keys, sql`, `), groupBy: sql.raw(positions) };
}

/** Sums of answer rollups per bucket and/or group over [from, to). */
export async function readAnswerRollups(
  db: Db,
  workspaceId: string,
  read: RollupRead,
): Promise<AnswerRollupSum[]> {
  const { select, groupBy } = selectKeys(read);
  const buckets = LATENCY_BOUNDS_MS.map((_, i) => `sum(latency_buckets[${i + 1}])::float8`);
  buckets.push(`sum(latency_buckets[${LATENCY_BOUNDS_MS.length + 1}])::float8`);
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${select}, sum(count)::float8 as count, sum(gate_pass)::float8 as gate_pass,
          sum(gate_partial)::float8 as gate_partial, sum(gate_fail)::float8 as gate_fail,
          sum(latency_count)::float8 as latency_count, sum(latency_sum)::float8 as latency_sum,
          array[${sql.raw(buckets.join(", "))}] as latency_buckets,
          sum(prompt_tokens)::float8 as prompt_tokens, sum(completion_tokens)::float8 as completion_tokens,
          sum(feedback_up)::float8 as feedback_up, sum(feedback_down)::float8 as feedback_down,
          sum(feedback_scores)::float8 as feedback_scores,
          sum(feedback_score_sum)::float8 as feedback_score_sum
        from answer_rollups where ${readConditions(workspaceId, read)}
        group by ${groupBy} order by ${groupBy}`,
  );
  return rows.map((row) => ({
    ...(row.bucket !== undefined ? { bucket: new Date(row.bucket as string | Date) } : {}),
    ...(row.group !== undefined ? { group: String(row.group) } : {}),
    count: Number(row.count),
    gate_pass: Number(row.gate_pass),
    gate_partial: Number(row.gate_partial),
    gate_fail: Number(row.gate_fail),
    latency_count: Number(row.latency_count),
    latency_sum: Number(row.latency_sum),
    latency_buckets: (row.latency_buckets as unknown[]).map(Number),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    feedback_up: Number(row.feedback_up),
    feedback_down: Number(row.feedback_down),
    feedback_scores: Number(row.feedback_scores),
    feedback_score_sum: Number(row.feedback_score_sum),
  }));
}

/** Sums of judge rollups per judge, and per bucket and/or group, over [from, to). */
export async function readJudgeRollups(
  db: Db,
  workspaceId: string,
  read: RollupRead,
): Promise<JudgeRollupSum[]> {
  const { select, groupBy } = selectKeys(read);
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select ${select}, judge, sum(count)::float8 as count, sum(score_sum)::float8 as score_sum,
          sum(passed)::float8 as passed
        from judge_rollups where ${readConditions(workspaceId, read)}
        group by ${groupBy}, judge order by ${groupBy}, judge`,
  );
  return rows.map((row) => ({
    ...(row.bucket !== undefined ? { bucket: new Date(row.bucket as string | Date) } : {}),
    ...(row.group !== undefined ? { group: String(row.group) } : {}),
    judge: String(row.judge),
    count: Number(row.count),
    score_sum: Number(row.score_sum),
    passed: Number(row.passed),
  }));
}

/** The services and collections a user's rollups name, for the monitor's choice of page. */
export async function listRollupScopes(
  db: Db,
  workspaceId: string,
  since: Date,
): Promise<{ services: string[]; collections: string[] }> {
  const rows = await queryRows<{ service: string; collection: string }>(
    db,
    sql`select distinct service, collection from answer_rollups
        where workspace_id = ${workspaceId} and grain = 3600 and meta_key = ''
          and minute >= ${since.toISOString()}::timestamptz`,
  );
  const services = new Set<string>();
  const collections = new Set<string>();
  for (const row of rows) {
    if (row.service) services.add(row.service);
    if (row.collection) collections.add(row.collection);
  }
  return { services: [...services].sort(), collections: [...collections].sort() };
}
