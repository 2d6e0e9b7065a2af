// Monitors (issue 24 §2): their definitions, the answers each took up, and the budget's counts.
// An answer is taken up by a monitor once (a unique (monitor, answer) row); the job judging it
// claims that row, and only the claim's holder writes its result.

import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { rollupJudgeScoresCte } from "./answer-rollups.js";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { answer_records, monitor_judgments, monitor_minutes, monitors } from "./schema.js";

export type MonitorRow = typeof monitors.$inferSelect;
export type NewMonitor = Pick<
  typeof monitors.$inferInsert,
  | "name"
  | "enabled"
  | "filter"
  | "sample_rate"
  | "judges"
  | "max_calls_per_minute"
  | "max_calls_per_day"
>;
export type MonitorJudgmentRow = typeof monitor_judgments.$inferSelect;

export async function insertMonitor(
  db: Db,
  workspaceId: string,
  monitor: NewMonitor,
): Promise<MonitorRow> {
  const [row] = await db
    .insert(monitors)
    .values({ ...monitor, workspace_id: workspaceId })
    .returning();
  if (!row) throw new Error("insert into monitors returned no row");
  return row;
}

export async function listMonitors(db: Db, workspaceId: string): Promise<MonitorRow[]> {
  return db
    .select()
    .from(monitors)
    .where(eq(monitors.workspace_id, workspaceId))
    .orderBy(desc(monitors.created_at), desc(monitors.id));
}

/** Another user's monitor reads as missing. */
export async function getMonitor(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<MonitorRow | undefined> {
  const [row] = await db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, idParam(id)), eq(monitors.workspace_id, workspaceId)));
  return row;
}

export async function updateMonitor(
  db: Db,
  workspaceId: string,
  id: string,
  monitor: NewMonitor,
): Promise<MonitorRow | undefined> {
  const [row] = await db
    .update(monitors)
    .set({ ...monitor, updated_at: new Date() })
    .where(and(eq(monitors.id, idParam(id)), eq(monitors.workspace_id, workspaceId)))
    .returning();
  return row;
}

export async function deleteMonitor(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(monitors)
    .where(and(eq(monitors.id, idParam(id)), eq(monitors.workspace_id, workspaceId)))
    .returning({ id: monitors.id });
  return rows.length > 0;
}

export async function listEnabledMonitors(db: Db, workspaceId: string): Promise<MonitorRow[]> {
  return db
    .select()
    .from(monitors)
    .where(and(eq(monitors.workspace_id, workspaceId), eq(monitors.enabled, true)));
}

/** What one monitor takes up from answers that arrived in one minute. */
export interface MonitorIntake {
  monitor: Pick<MonitorRow, "id" | "workspace_id" | "max_calls_per_minute" | "max_calls_per_day">;
  /** The minute the answers arrived in (the budget's minute). */
  minute: Date;
  /** LLM calls one answer costs (the monitor's LLM judges); 0 for offline judges only. */
  callsPerAnswer: number;
  /** Answers that matched the filter, and of those how many the sample left out. */
  matched: number;
  sampledOut: number;
  /** The sampled answers, in arrival order: the first ones the budget allows are queued. */
  answers: { id: string; received_at: Date }[];
}

export interface MonitorIntakeResult {
  /** Judgments queued, to be judged by jobs. */
  queued: string[];
  /** Answers skipped because the budget was spent. */
  skipped: number;
}

/**
 * Takes sampled answers up for a monitor: as many as the minute's and the day's budgets leave
 * room for are queued, the rest stored as skipped, at once, so a burst is never judged late. Under
 * a per-monitor lock, so two processes ingesting at once share one budget. An answer the monitor
 * took up before is left as it is.
 */
export async function takeUpAnswers(db: Db, intake: MonitorIntake): Promise<MonitorIntakeResult> {
  const { monitor, callsPerAnswer, minute } = intake;
  const dayStart = new Date(
    Date.UTC(minute.getUTCFullYear(), minute.getUTCMonth(), minute.getUTCDate()),
  );
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`select pg_advisory_xact_lock(hashtext(${`ragjudge:monitor:${monitor.id}`}))`,
    );
    const [used] = await queryRows<{ minute_calls: number; day_calls: number }>(
      tx as unknown as Db,
      sql`select coalesce(sum(llm_calls) filter (where minute = ${minute.toISOString()}::timestamptz), 0)::int as minute_calls,
                 coalesce(sum(llm_calls), 0)::int as day_calls
          from ${monitor_minutes}
          where monitor_id = ${monitor.id} and minute >= ${dayStart.toISOString()}::timestamptz`,
    );
    const room =
      callsPerAnswer === 0
        ? intake.answers.length
        : Math.max(
            0,
            Math.min(
              Math.floor(
                (monitor.max_calls_per_minute - (used?.minute_calls ?? 0)) / callsPerAnswer,
              ),
              Math.floor((monitor.max_calls_per_day - (used?.day_calls ?? 0)) / callsPerAnswer),
            ),
          );
    const minuteFull =
      callsPerAnswer > 0 &&
      (monitor.max_calls_per_minute - (used?.minute_calls ?? 0)) / callsPerAnswer <=
        (monitor.max_calls_per_day - (used?.day_calls ?? 0)) / callsPerAnswer;
    const rows = intake.answers.map((answer, i) => ({
      workspace_id: monitor.workspace_id,
      monitor_id: monitor.id,
      answer_id: answer.id,
      answer_received_at: answer.received_at,
      status: i < room ? ("queued" as const) : ("skipped" as const),
      skip_reason:
        i < room
          ? null
          : minuteFull
            ? "The monitor's budget of LLM calls per minute was spent."
            : "The monitor's budget of LLM calls per day was spent.",
      llm_calls: i < room ? callsPerAnswer : 0,
    }));
    const written =
      rows.length === 0
        ? []
        : await tx
            .insert(monitor_judgments)
            .values(rows)
            .onConflictDoNothing()
            .returning({ id: monitor_judgments.id, status: monitor_judgments.status });
    const queued = written.filter((row) => row.status === "queued").map((row) => row.id);
    const skipped = written.length - queued.length;
    await tx
      .insert(monitor_minutes)
      .values({
        monitor_id: monitor.id,
        minute,
        matched: intake.matched,
        sampled_out: intake.sampledOut,
        queued: queued.length,
        skipped,
        llm_calls: queued.length * callsPerAnswer,
      })
      .onConflictDoUpdate({
        target: [monitor_minutes.monitor_id, monitor_minutes.minute],
        set: {
          matched: sql`${monitor_minutes.matched} + excluded.matched`,
          sampled_out: sql`${monitor_minutes.sampled_out} + excluded.sampled_out`,
          queued: sql`${monitor_minutes.queued} + excluded.queued`,
          skipped: sql`${monitor_minutes.skipped} + excluded.skipped`,
          llm_calls: sql`${monitor_minutes.llm_calls} + excluded.llm_calls`,
        },
      });
    return { queued, skipped };
  });
}

/** A claimed judgment with what judging it needs. */
export interface ClaimedJudgment {
  judgment: MonitorJudgmentRow;
  monitor: MonitorRow;
  answer: typeof answer_records.$inferSelect;
}

/**
 * Claims a queued judgment for a job, or takes it back for the same job after its worker died
 * (pg-boss retries a job under its own id). A judgment done, failed, or held by another job is not
 * claimed: undefined.
 */
export async function claimJudgment(
  db: Db,
  judgmentId: string,
  jobId: string,
): Promise<ClaimedJudgment | undefined> {
  const [judgment] = await db
    .update(monitor_judgments)
    .set({ status: "running", job_id: jobId })
    .where(
      and(
        eq(monitor_judgments.id, idParam(judgmentId)),
        sql`(${monitor_judgments.status} = 'queued' or (${monitor_judgments.status} = 'running' and ${monitor_judgments.job_id} = ${jobId}))`,
      ),
    )
    .returning();
  if (!judgment) return undefined;
  const [monitor] = await db.select().from(monitors).where(eq(monitors.id, judgment.monitor_id));
  const [answer] = await db
    .select()
    .from(answer_records)
    .where(
      and(
        eq(answer_records.id, judgment.answer_id),
        eq(answer_records.received_at, judgment.answer_received_at),
      ),
    );
  if (!monitor || !answer) return undefined;
  return { judgment, monitor, answer };
}

/** One judge's score for the rollups. */
export interface JudgeScore {
  judge: string;
  score: number;
  passed: boolean | null;
}

/**
 * Writes a claimed judgment's result and adds its scores to the judge rollups, in one statement
 * that changes nothing unless the job still holds the claim. True when written.
 */
export async function finishJudgment(
  db: Db,
  options: {
    judgmentId: string;
    jobId: string;
    status: "done" | "failed";
    results: object;
    scores: readonly JudgeScore[];
    breakdownKeys?: readonly string[];
  },
): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`with finished as (
        update ${monitor_judgments} set status = ${options.status},
          results = ${JSON.stringify(options.results)}::jsonb, judged_at = now()
        where id = ${options.judgmentId} and status = 'running' and job_id = ${options.jobId}
        returning id, answer_id, answer_received_at, workspace_id
      ),
      answer as (
        select a.workspace_id, a.received_at, a.service, a.collection, a.model, a.metadata
        from ${answer_records} a join finished f
          on a.id = f.answer_id and a.received_at = f.answer_received_at and a.workspace_id = f.workspace_id
      ),
      scores as (
        select * from jsonb_to_recordset(${JSON.stringify(options.scores)}::jsonb)
          as j(judge text, score float8, passed boolean)
      ),
      ${rollupJudgeScoresCte("answer", "scores", options.breakdownKeys ?? [])}
      select id from finished`,
  );
  return rows.length > 0;
}

/** Queued judgments older than `olderThanMs`: their job may be lost, so they are sent again. */
export async function strandedJudgments(
  db: Db,
  olderThanMs: number,
  limit = 1_000,
): Promise<string[]> {
  const rows = await db
    .select({ id: monitor_judgments.id })
    .from(monitor_judgments)
    .where(
      and(
        eq(monitor_judgments.status, "queued"),
        lt(monitor_judgments.created_at, new Date(Date.now() - olderThanMs)),
      ),
    )
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Every monitor's judgment of one answer, with the monitor's name. */
export async function listAnswerJudgments(
  db: Db,
  workspaceId: string,
  answerId: string,
): Promise<(MonitorJudgmentRow & { monitor_name: string })[]> {
  const rows = await db
    .select({ judgment: monitor_judgments, monitor_name: monitors.name })
    .from(monitor_judgments)
    .innerJoin(monitors, eq(monitors.id, monitor_judgments.monitor_id))
    .where(
      and(
        eq(monitor_judgments.workspace_id, workspaceId),
        eq(monitor_judgments.answer_id, idParam(answerId)),
      ),
    )
    .orderBy(monitors.name);
  return rows.map((row) => ({ ...row.judgment, monitor_name: row.monitor_name }));
}

/** A monitor's counts since a time: intake per minute summed, and its judgments by status. */
export interface MonitorCounts {
  matched: number;
  sampled_out: number;
  skipped: number;
  llm_calls: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
}

export async function monitorCounts(
  db: Db,
  monitorIds: readonly string[],
  since: Date,
): Promise<Map<string, MonitorCounts>> {
  const counts = new Map<string, MonitorCounts>();
  if (monitorIds.length === 0) return counts;
  for (const id of monitorIds) {
    counts.set(id, {
      matched: 0,
      sampled_out: 0,
      skipped: 0,
      llm_calls: 0,
      queued: 0,
      running: 0,
      done: 0,
      failed: 0,
    });
  }
  const minutes = await db
    .select({
      monitor_id: monitor_minutes.monitor_id,
      matched: sql<number>`sum(${monitor_minutes.matched})::int`,
      sampled_out: sql<number>`sum(${monitor_minutes.sampled_out})::int`,
      skipped: sql<number>`sum(${monitor_minutes.skipped})::int`,
      llm_calls: sql<number>`sum(${monitor_minutes.llm_calls})::int`,
    })
    .from(monitor_minutes)
    .where(
      and(
        inArray(monitor_minutes.monitor_id, [...monitorIds]),
        sql`${monitor_minutes.minute} >= ${since.toISOString()}::timestamptz`,
      ),
    )
    .groupBy(monitor_minutes.monitor_id);
  for (const row of minutes) {
    const entry = counts.get(row.monitor_id);
    if (!entry) continue;
    entry.matched = Number(row.matched);
    entry.sampled_out = Number(row.sampled_out);
    entry.skipped = Number(row.skipped);
    entry.llm_calls = Number(row.llm_calls);
  }
  const statuses = await db
    .select({
      monitor_id: monitor_judgments.monitor_id,
      status: monitor_judgments.status,
      n: sql<number>`count(*)::int`,
    })
    .from(monitor_judgments)
    .where(
      and(
        inArray(monitor_judgments.monitor_id, [...monitorIds]),
        sql`${monitor_judgments.answer_received_at} >= ${since.toISOString()}::timestamptz`,
      ),
    )
    .groupBy(monitor_judgments.monitor_id, monitor_judgments.status);
  for (const row of statuses) {
    const entry = counts.get(row.monitor_id);
    if (!entry || row.status === "skipped") continue;
    entry[row.status] = Number(row.n);
  }
  return counts;
}

/**
 * A monitor's judged answers as calibration rows (issue 24 §2): the judge's score and verdict
 * beside people's latest thumb on the same answer (a thumbs up is a pass), so the judge is
 * calibrated against live traffic. Answers without a thumb come too (for PPI++'s unlabelled part).
 */
export async function monitorCalibrationRows(
  db: Db,
  workspaceId: string,
  monitorId: string,
  judge: string,
): Promise<CalibrationRowLike[]> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select j.answer_id as result_id, j.results -> ${judge} ->> 'outcome' as outcome,
          (j.results -> ${judge} ->> 'score')::float8 as raw_score,
          (j.results -> ${judge} ->> 'passed')::boolean as judge_passed,
          f.thumb, f.comment
        from ${monitor_judgments} j
        left join lateral (
          select thumb, comment from answer_feedback f
          where f.workspace_id = j.workspace_id and f.answer_id = j.answer_id and f.thumb is not null
          order by f.created_at desc, f.id desc limit 1
        ) f on true
        where j.workspace_id = ${workspaceId} and j.monitor_id = ${monitorId}
          and j.status in ('done', 'failed') and j.results ? ${judge}
        order by j.answer_received_at, j.answer_id`,
  );
  return rows.map((row, i) => ({
    result_id: String(row.result_id),
    position: i + 1,
    question_text: "",
    answer: null,
    outcome: (row.outcome as string | null) ?? null,
    defaulted: false,
    raw_score: row.raw_score === null ? null : Number(row.raw_score),
    judge_passed: (row.judge_passed as boolean | null) ?? null,
    human_score: null,
    human_passed: row.thumb === null || row.thumb === undefined ? null : row.thumb === "up",
    note: (row.comment as string | null) ?? null,
    pass_note: null,
  }));
}

/** The fields of a calibration row (human-labels.ts CalibrationRow), from production feedback. */
export interface CalibrationRowLike {
  result_id: string;
  position: number;
  question_text: string;
  answer: string | null;
  outcome: string | null;
  defaulted: boolean | null;
  raw_score: number | null;
  judge_passed: boolean | null;
  human_score: number | null;
  human_passed: boolean | null;
  note: string | null;
  pass_note: string | null;
}
