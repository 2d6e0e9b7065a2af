// The evaluation store on both stores: claims and final writes in batches (the worker's group
// commit) keep the guarantees of one at a time; a run's summary and report rows are read whole, by
// pages.

import { sql } from "drizzle-orm";
import { expect, it } from "vitest";
import {
  claimResults,
  createEvaluation,
  finishResults,
  findOrCreateUser,
  getEvaluation,
  listEvaluationResults,
  listReportRows,
  listSummaryRows,
  queryRows,
  type ResultWrite,
  type Store,
  transitionEvaluation,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const write = (score: number, status: ResultWrite["status"] = "SCORED"): ResultWrite => ({
  status,
  latency_ms: 2,
  usage: { bot: { calls: 1 } },
  rag_answer: `answer ${score}`,
  rag_answer_sources: [{ node_id: "n1", content: "c" }],
  rag_citations: [],
  rag_tool_calls: [],
  gate_status: "pass",
  gate: { status: "pass" },
  judges: { offline: { score } },
  llm_judge_score: null,
  llm_judge_reasoning: null,
  score: status === "SCORED" ? score : null,
  passed: status === "SCORED",
  error: status === "SCORED" ? null : "boom",
});

async function runningEvaluation(store: Store, workspaceId: string, name: string, n: number) {
  const row = await createEvaluation(store.db, workspaceId, {
    user_id: workspaceId,
    name,
    bot_id: "builtin",
    judge_llm_model_id: "offline",
    config: {},
    questions: Array.from({ length: n }, (_, i) => ({
      question_id: `${name}-q${i}`,
      question_type: "FACTUAL",
      question_text: `question ${i}?`,
      ground_truth: `truth ${i}`,
      reference_context: null,
    })),
  });
  await transitionEvaluation(store.db, row.id, ["PENDING"], "RUNNING");
  return row.id;
}

describeEachStore("batched claims and result writes", (use, kind) => {
  it("a batch claims each free row once; a second job for a held row gets nothing", async () => {
    const store = use();
    const user = await findOrCreateUser(store.db, "batch");
    const id = await runningEvaluation(store, user.id, "a", 3);
    const claims = await claimResults(store.db, [
      { evaluationId: id, questionId: "a-q0", jobId: "j0" },
      { evaluationId: id, questionId: "a-q1", jobId: "j1" },
      { evaluationId: id, questionId: "a-q1", jobId: "j1-duplicate" },
      { evaluationId: id, questionId: "missing", jobId: "j9" },
    ]);
    expect(claims[0]).toMatchObject({ question_id: "a-q0", status: "RUNNING", job_id: "j0" });
    expect(claims[3]).toBeUndefined();
    // Exactly one of the two jobs for a-q1 holds it.
    const holders = [claims[1], claims[2]].filter(Boolean);
    expect(holders).toHaveLength(1);
    expect(holders[0]?.attempts).toBe(1);
    // The same job claims its row again (a retried job); another job does not.
    const again = await claimResults(store.db, [
      { evaluationId: id, questionId: "a-q0", jobId: "j0" },
      { evaluationId: id, questionId: "a-q0", jobId: "other" },
    ]);
    expect(again[0]?.attempts).toBe(2);
    expect(again[1]).toBeUndefined();
  });

  it("a batch writes rows of two runs, moves each run's counters once, and skips stale jobs", async () => {
    const store = use();
    const user = await findOrCreateUser(store.db, "batch");
    const first = await runningEvaluation(store, user.id, "b", 3);
    const second = await runningEvaluation(store, user.id, "c", 1);
    await claimResults(store.db, [
      { evaluationId: first, questionId: "b-q0", jobId: "j0" },
      { evaluationId: first, questionId: "b-q1", jobId: "j1" },
      { evaluationId: first, questionId: "b-q2", jobId: "j2" },
      { evaluationId: second, questionId: "c-q0", jobId: "k0" },
    ]);
    const outcomes = await finishResults(store.db, [
      { evaluationId: first, questionId: "b-q0", jobId: "j0", write: write(0.5) },
      { evaluationId: second, questionId: "c-q0", jobId: "k0", write: write(1) },
      { evaluationId: first, questionId: "b-q1", jobId: "j1", write: write(0, "BOT_ERROR") },
      { evaluationId: first, questionId: "b-q2", jobId: "not-the-holder", write: write(0.9) },
    ]);
    expect(outcomes.map((outcome) => outcome.written)).toEqual([true, true, true, false]);
    expect(outcomes[0]?.evaluation).toMatchObject({
      status: "RUNNING",
      completed_questions: 2,
      scored_questions: 1,
      bot_error_count: 1,
    });
    expect(outcomes[1]?.evaluation).toMatchObject({ status: "COMPLETED", completed_questions: 1 });

    const run = await getEvaluation(store.db, user.id, first);
    expect(run).toMatchObject({ completed_questions: 2, scored_questions: 1, progress: 66 });
    expect(run?.average_score).toBeCloseTo(0.5);
    const rows = await listEvaluationResults(store.db, user.id, first);
    const byQuestion = new Map(rows.map((row) => [row.question_id, row]));
    expect(byQuestion.get("b-q0")).toMatchObject({
      status: "SCORED",
      job_id: null,
      score: 0.5,
      rag_answer: "answer 0.5",
      usage: { bot: { calls: 1 } },
      judges: { offline: { score: 0.5 } },
    });
    expect(byQuestion.get("b-q1")).toMatchObject({ status: "BOT_ERROR", error: "boom" });
    expect(byQuestion.get("b-q2")).toMatchObject({ status: "RUNNING", job_id: "j2" });

    // Written twice (a job delivered again after its write): nothing moves.
    const repeat = await finishResults(store.db, [
      { evaluationId: first, questionId: "b-q0", jobId: "j0", write: write(0.1) },
    ]);
    expect(repeat).toEqual([{ written: false }]);
    expect((await getEvaluation(store.db, user.id, first))?.completed_questions).toBe(2);
  });

  it("reads every row's summary columns page by page, in question order, for its owner only", async () => {
    const store = use();
    const user = await findOrCreateUser(store.db, "batch");
    const other = await findOrCreateUser(store.db, "someone-else");
    const id = await runningEvaluation(store, user.id, "d", 7);
    await claimResults(store.db, [{ evaluationId: id, questionId: "d-q5", jobId: "j5" }]);
    await finishResults(store.db, [
      { evaluationId: id, questionId: "d-q5", jobId: "j5", write: write(0.25) },
    ]);
    const rows = await listSummaryRows(store.db, user.id, id, 3);
    expect(rows.map((row) => row.status)).toEqual([
      "PENDING",
      "PENDING",
      "PENDING",
      "PENDING",
      "PENDING",
      "SCORED",
      "PENDING",
    ]);
    expect(rows[5]).toEqual({
      status: "SCORED",
      question_type: "FACTUAL",
      score: 0.25,
      passed: true,
      gate_status: "pass",
      judges: { offline: { score: 0.25 } },
      latency_ms: 2,
      usage: { bot: { calls: 1 } },
      // No relevant ids on the question: no retrieval metrics.
      retrieval: null,
    });
    expect(await listSummaryRows(store.db, other.id, id, 3)).toEqual([]);
  });

  it("reads every row's report columns page by page, in question order, for its owner only", async () => {
    const store = use();
    const user = await findOrCreateUser(store.db, "report");
    const other = await findOrCreateUser(store.db, "someone-else");
    const id = await runningEvaluation(store, user.id, "r", 7);
    await claimResults(store.db, [{ evaluationId: id, questionId: "r-q4", jobId: "j4" }]);
    await finishResults(store.db, [
      { evaluationId: id, questionId: "r-q4", jobId: "j4", write: write(0.75) },
    ]);
    const rows = await listReportRows(store.db, user.id, id, 3);
    expect(rows.map((row) => row.position)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    // The same values as the whole rows, less the columns a report never shows.
    const whole = await listEvaluationResults(store.db, user.id, id);
    expect(rows[4]).toEqual({
      position: 4,
      question_id: "r-q4",
      question_type: "FACTUAL",
      question_text: "question 4?",
      ground_truth: "truth 4",
      status: "SCORED",
      rag_answer: "answer 0.75",
      rag_citations: [],
      rag_answer_sources: [{ node_id: "n1", content: "c" }],
      gate_status: "pass",
      judges: { offline: { score: 0.75 } },
      score: 0.75,
      passed: true,
      error: null,
      latency_ms: 2,
      attempts: whole[4]?.attempts,
      usage: { bot: { calls: 1 } },
      retrieval: null,
    });
    expect(rows[4]).not.toHaveProperty("gate");
    expect(await listReportRows(store.db, other.id, id, 3)).toEqual([]);
  });

  it.runIf(kind === "postgres")(
    "claims and result writes are named statements on a server: prepared once per connection",
    async () => {
      const store = use();
      const user = await findOrCreateUser(store.db, "batch");
      const id = await runningEvaluation(store, user.id, "e", 4);
      for (const n of [0, 1, 2, 3]) {
        const item = { evaluationId: id, questionId: `e-q${n}`, jobId: `j${n}` };
        await claimResults(store.db, [item]);
        await finishResults(store.db, [{ ...item, write: write(0.5) }]);
      }
      // One item at a time, so the pool hands out the same connection: its session's statements.
      const prepared = await queryRows<{ statement: string }>(
        store.db,
        sql`select statement from pg_prepared_statements where name like 'rj\_%'`,
      );
      expect(prepared).toHaveLength(2);
      expect(prepared.some((p) => /^update "evaluation_results" set/.test(p.statement))).toBe(true);
      expect(prepared.some((p) => /update "evaluations" set/.test(p.statement))).toBe(true);
      expect((await getEvaluation(store.db, user.id, id))?.completed_questions).toBe(4);
    },
  );
});
