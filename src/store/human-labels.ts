import { and, asc, eq, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { queryRows } from "./raw-query.js";
import { type RecordColumns, recordset } from "./recordset.js";
import { evaluation_results, evaluations, human_labels } from "./schema.js";

export type HumanLabelRow = typeof human_labels.$inferSelect;
export type LabelScale = HumanLabelRow["scale"];
export const LABEL_SCALES: readonly LabelScale[] = ["1-10", "1-5", "pass_fail"];

const LABEL_COLUMNS = {
  evaluation_result_id: human_labels.evaluation_result_id,
  scale: human_labels.scale,
  score: human_labels.score,
  passed: human_labels.passed,
  note: human_labels.note,
  labelled_by: human_labels.labelled_by,
} satisfies RecordColumns;

export type NewHumanLabel = Pick<HumanLabelRow, keyof typeof LABEL_COLUMNS>;

/**
 * Writes labels of one of the user's evaluations in one statement (all or none), replacing an
 * existing label of the same result and scale. Only results of that evaluation owned by the user
 * are written; returns the rows written, so a caller can tell a foreign id (none written).
 */
export async function upsertHumanLabels(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  labels: readonly NewHumanLabel[],
): Promise<HumanLabelRow[]> {
  if (labels.length === 0) return [];
  return queryRows<HumanLabelRow>(
    db,
    sql`insert into human_labels
          (workspace_id, evaluation_id, evaluation_result_id, scale, score, passed, note, labelled_by)
        select ${workspaceId}::uuid, ${idParam(evaluationId)}, r.id, i.scale, i.score, i.passed, i.note,
               i.labelled_by
        from ${recordset("i", LABEL_COLUMNS, labels)}
          join evaluation_results r on r.id = i.evaluation_result_id
            and r.evaluation_id = ${idParam(evaluationId)} and r.workspace_id = ${workspaceId}::uuid
          join evaluations e on e.id = r.evaluation_id and e.gmt_deleted is null
        on conflict (evaluation_result_id, scale) do update set
          score = excluded.score, passed = excluded.passed, note = excluded.note,
          labelled_by = excluded.labelled_by, labelled_at = now()
        returning *`,
  );
}

/** Every label of a run (optionally one scale), in question order. */
export async function listHumanLabels(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  scale?: LabelScale,
): Promise<(HumanLabelRow & { position: number; question_id: string })[]> {
  const conditions = [
    eq(human_labels.evaluation_id, idParam(evaluationId)),
    eq(human_labels.workspace_id, workspaceId),
  ];
  if (scale) conditions.push(eq(human_labels.scale, scale));
  const rows = await db
    .select({
      label: human_labels,
      position: evaluation_results.position,
      question_id: evaluation_results.question_id,
    })
    .from(human_labels)
    .innerJoin(evaluation_results, eq(evaluation_results.id, human_labels.evaluation_result_id))
    .where(and(...conditions))
    .orderBy(asc(evaluation_results.position), asc(human_labels.scale));
  return rows.map((row) => ({
    ...row.label,
    position: row.position,
    question_id: row.question_id,
  }));
}

/** The labels of one result of one of the user's evaluations. */
export async function listResultLabels(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultId: string,
): Promise<HumanLabelRow[]> {
  return db
    .select()
    .from(human_labels)
    .where(
      and(
        eq(human_labels.evaluation_result_id, idParam(resultId)),
        eq(human_labels.evaluation_id, idParam(evaluationId)),
        eq(human_labels.workspace_id, workspaceId),
      ),
    )
    .orderBy(asc(human_labels.scale));
}

export async function deleteHumanLabel(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultId: string,
  scale: LabelScale,
): Promise<boolean> {
  const rows = await db
    .delete(human_labels)
    .where(
      and(
        eq(human_labels.evaluation_result_id, idParam(resultId)),
        eq(human_labels.evaluation_id, idParam(evaluationId)),
        eq(human_labels.workspace_id, workspaceId),
        eq(human_labels.scale, scale),
      ),
    )
    .returning({ id: human_labels.id });
  return rows.length > 0;
}

/** What a label file's line is matched against: a run's results by question text. */
export interface LabelTarget {
  id: string;
  position: number;
  question_text: string;
  status: string;
}

export async function labelTargets(
  db: Db,
  workspaceId: string,
  evaluationId: string,
): Promise<LabelTarget[]> {
  return db
    .select({
      id: evaluation_results.id,
      position: evaluation_results.position,
      question_text: evaluation_results.question_text,
      status: evaluation_results.status,
    })
    .from(evaluation_results)
    .where(
      and(
        eq(evaluation_results.evaluation_id, idParam(evaluationId)),
        eq(evaluation_results.workspace_id, workspaceId),
      ),
    )
    .orderBy(asc(evaluation_results.position));
}

/**
 * The first SCORED result (in question order, after `afterPosition`) with no label on `scale`,
 * and how many SCORED results are labelled and not yet: the labelling view's next item.
 */
export async function nextUnlabelledResult(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  scale: LabelScale,
  afterPosition = -1,
): Promise<{ resultId: string | null; labelled: number; unlabelled: number }> {
  const [row] = await queryRows<{ next: string | null; labelled: number; unlabelled: number }>(
    db,
    sql`with r as (
          select r.id, r.position, exists (
              select 1 from human_labels l
              where l.evaluation_result_id = r.id and l.scale = ${scale}) as labelled
          from evaluation_results r
          where r.evaluation_id = ${idParam(evaluationId)} and r.workspace_id = ${workspaceId}::uuid
            and r.status = 'SCORED')
        select
          (select id from r where not labelled and position > ${afterPosition}
           order by position limit 1)::text as next,
          count(*) filter (where labelled)::int as labelled,
          count(*) filter (where not labelled)::int as unlabelled
        from r`,
  );
  return {
    resultId: row?.next ?? null,
    labelled: row?.labelled ?? 0,
    unlabelled: row?.unlabelled ?? 0,
  };
}

/**
 * Where one result stands among a run's SCORED results (question order) for the labelling view:
 * the SCORED results just before and after it, its 1-based place among them (0 when it is not
 * SCORED and nothing precedes it), and how many are labelled on `scale`.
 */
export async function labelNeighbours(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  position: number,
  scale: LabelScale,
): Promise<{
  previousId: string | null;
  nextId: string | null;
  index: number;
  total: number;
  labelled: number;
}> {
  const [row] = await queryRows<{
    previous: string | null;
    next: string | null;
    index: number;
    total: number;
    labelled: number;
  }>(
    db,
    sql`with r as (
          select r.id, r.position, exists (
              select 1 from human_labels l
              where l.evaluation_result_id = r.id and l.scale = ${scale}) as labelled
          from evaluation_results r
          where r.evaluation_id = ${idParam(evaluationId)} and r.workspace_id = ${workspaceId}::uuid
            and r.status = 'SCORED')
        select
          (select id from r where position < ${position} order by position desc limit 1)::text
            as previous,
          (select id from r where position > ${position} order by position limit 1)::text as next,
          count(*) filter (where position <= ${position})::int as index,
          count(*)::int as total,
          count(*) filter (where labelled)::int as labelled
        from r`,
  );
  return {
    previousId: row?.previous ?? null,
    nextId: row?.next ?? null,
    index: row?.index ?? 0,
    total: row?.total ?? 0,
    labelled: row?.labelled ?? 0,
  };
}

/** One result of one of the user's (not deleted) evaluations. */
export async function getEvaluationResult(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultId: string,
): Promise<typeof evaluation_results.$inferSelect | undefined> {
  const [row] = await db
    .select({ result: evaluation_results })
    .from(evaluation_results)
    .innerJoin(evaluations, eq(evaluations.id, evaluation_results.evaluation_id))
    .where(
      and(
        eq(evaluation_results.id, idParam(resultId)),
        eq(evaluation_results.evaluation_id, idParam(evaluationId)),
        eq(evaluation_results.workspace_id, workspaceId),
        sql`${evaluations.gmt_deleted} is null`,
      ),
    );
  return row?.result;
}

/** One item of a calibration: the judge's output on a result and the person's labels. */
export interface CalibrationRow {
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

/**
 * A run's SCORED and JUDGE_ERROR results with the named judge's raw score and verdict (read out
 * of the stored JSON in the database) and the person's score on `scale` and pass/fail label, when
 * present. Without `details`, question, answer and notes are left out (empty and null;
 * calibrationDetails reads them for the few results a report lists), the rows come in no particular
 * order, and the columns come back as one row of comma-joined lists: returning 100,000 rows one by
 * one costs seconds on PGlite, one row of six strings a fraction of that. The lists are aligned
 * because one aggregate node feeds every string_agg the same rows in the same order (no ORDER BY,
 * so no sort of the run). A judge error's raw_score is null. With `details`, in question order.
 */
export async function calibrationRows(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  judge: string,
  scale: LabelScale,
  options: { details?: boolean } = {},
): Promise<CalibrationRow[]> {
  // The judge's JSON is taken out of each row once, by a subquery that offset 0 keeps from being
  // merged into this one: otherwise each of the expressions below re-reads `judges`, which for a
  // real run (verdicts with reasons, several judges) is a compressed TOAST value decompressed
  // every time (0.9 s of CPU instead of 0.36 s on 100,000 results). Labels are joined by this run
  // (their evaluation index), not by scanning every run's labels.
  const texts = options.details ? sql`r.question_text, r.rag_answer,` : sql``;
  const from = sql`from (select r.id, r.position, ${texts} r.judges -> ${judge} as j
            from evaluation_results r
            where r.evaluation_id = ${idParam(evaluationId)} and r.workspace_id = ${workspaceId}::uuid
              and r.status in ('SCORED', 'JUDGE_ERROR')
            offset 0) r
          left join human_labels s on s.evaluation_result_id = r.id
            and s.evaluation_id = ${idParam(evaluationId)} and s.scale = ${scale}
          left join human_labels p on p.evaluation_result_id = r.id
            and p.evaluation_id = ${idParam(evaluationId)} and p.scale = 'pass_fail'`;
  const judged = sql`r.j ->> 'outcome' = 'ok'
          and coalesce((r.j ->> 'defaulted')::boolean, false) = false
          and jsonb_typeof(r.j -> 'raw_score') = 'number'`;
  if (options.details) {
    return queryRows<CalibrationRow>(
      db,
      sql`select r.id::text as result_id, r.position, r.question_text,
            left(r.rag_answer, 8000) as answer,
            case when ${judged} then 'ok' else 'judge_error' end as outcome,
            not (${judged}) as defaulted,
            case when ${judged} then (r.j ->> 'raw_score')::float8 end as raw_score,
            case when jsonb_typeof(r.j -> 'passed') = 'boolean'
              then (r.j ->> 'passed')::boolean end as judge_passed,
            s.score as human_score, p.passed as human_passed, s.note, p.note as pass_note
          ${from}
          order by r.position`,
    );
  }
  const [columns] = await queryRows<
    Record<"ids" | "positions" | "raw" | "passed" | "human" | "human_passed", string | null>
  >(
    db,
    sql`select
          string_agg(r.id::text, ',') as ids,
          string_agg(r.position::text, ',') as positions,
          string_agg(case when ${judged} then r.j ->> 'raw_score' else '' end, ',') as raw,
          string_agg(case when jsonb_typeof(r.j -> 'passed') = 'boolean'
            then (case when (r.j ->> 'passed')::boolean then '1' else '0' end) else '' end, ',') as passed,
          string_agg(coalesce(s.score::text, ''), ',') as human,
          string_agg(case when p.passed is null then '' when p.passed then '1' else '0' end, ',') as human_passed
        ${from}`,
  );
  if (!columns?.ids) return [];
  const list = (text: string | null) => (text ?? "").split(",");
  const [ids, positions, raw, passed, human, humanPassed] = [
    list(columns.ids),
    list(columns.positions),
    list(columns.raw),
    list(columns.passed),
    list(columns.human),
    list(columns.human_passed),
  ];
  const flag = (value: string | undefined) => (value === "1" ? true : value === "0" ? false : null);
  return ids.map((id, i) => {
    const score = raw[i] ?? "";
    return {
      result_id: id,
      position: Number(positions[i]),
      question_text: "",
      answer: null,
      outcome: score === "" ? "judge_error" : "ok",
      defaulted: score === "",
      raw_score: score === "" ? null : Number(score),
      judge_passed: flag(passed[i]),
      human_score: human[i] ? Number(human[i]) : null,
      human_passed: flag(humanPassed[i]),
      note: null,
      pass_note: null,
    };
  });
}

/** The question, answer and label notes of some results of a run (those a calibration report lists). */
export async function calibrationDetails(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  resultIds: readonly string[],
): Promise<Map<string, { question_text: string; answer: string | null; note: string | null }>> {
  if (resultIds.length === 0) return new Map();
  const rows = await queryRows<{
    id: string;
    question_text: string;
    answer: string | null;
    note: string | null;
  }>(
    db,
    sql`select r.id::text as id, r.question_text, left(r.rag_answer, 2000) as answer,
          (select string_agg(l.note, ' / ' order by l.scale) from human_labels l
           where l.evaluation_result_id = r.id and l.note is not null) as note
        from evaluation_results r
        where r.evaluation_id = ${idParam(evaluationId)} and r.workspace_id = ${workspaceId}::uuid
          and r.id = any(${`{${resultIds.join(",")}}`}::uuid[])`,
  );
  return new Map(
    rows.map((row) => [
      row.id,
      { question_text: row.question_text, answer: row.answer, note: row.note },
    ]),
  );
}

/** How many labels a run has on each scale. */
export async function labelCounts(
  db: Db,
  workspaceId: string,
  evaluationId: string,
): Promise<Partial<Record<LabelScale, number>>> {
  const rows = await queryRows<{ scale: LabelScale; n: number }>(
    db,
    sql`select scale, count(*)::int as n from human_labels
        where evaluation_id = ${idParam(evaluationId)} and workspace_id = ${workspaceId}::uuid
        group by scale`,
  );
  return Object.fromEntries(rows.map((row) => [row.scale, row.n]));
}
