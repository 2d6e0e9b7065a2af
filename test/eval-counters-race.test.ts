// A run's counters against a recount racing an item's final write, on a PostgreSQL server (PGlite
// has one connection, so the interleaving cannot happen there).
//
// recountEvaluation locks the evaluation row before counting: a count taken from a snapshot
// older than the lock wait would miss a final write committed meanwhile, then overwrite its
// increment, leaving the run one short for good (never COMPLETED).

import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject, it, vi } from "vitest";
import {
  claimResult,
  createEvaluation,
  type Db,
  finishResult,
  findOrCreateUser,
  openStore,
  queryRows,
  recountEvaluation,
  schema,
  type Store,
  transitionEvaluation,
} from "../src/store/index.js";
import { createDatabase } from "./support/postgres-server.js";

let databaseUrl: string;
let store: Store;
beforeAll(async () => {
  databaseUrl = await createDatabase(inject("postgresUrl"), "race");
  store = await openStore({ databaseUrl });
});
afterAll(async () => {
  await store.close();
});

const WRITE = {
  status: "SCORED" as const,
  latency_ms: 1,
  usage: null,
  rag_answer: "a",
  rag_answer_sources: [],
  rag_citations: [],
  rag_tool_calls: [],
  gate_status: null,
  gate: null,
  judges: {},
  llm_judge_score: null,
  llm_judge_reasoning: null,
  score: 0.5,
  passed: true,
  error: null,
};

it("a recount waiting on an item's final write still counts that item", async () => {
  const user = await findOrCreateUser(store.db, "race");
  const evaluation = await createEvaluation(store.db, user.id, {
    user_id: user.id,
    name: "race",
    bot_id: "builtin",
    judge_llm_model_id: "offline",
    config: {},
    questions: ["q1", "q2"].map((id) => ({
      question_id: id,
      question_type: "FACTUAL",
      question_text: `${id}?`,
      ground_truth: "",
    })),
  });
  await transitionEvaluation(store.db, evaluation.id, ["PENDING"], "RUNNING");
  expect(await claimResult(store.db, evaluation.id, "q1", "job-1")).toBeDefined();

  // The item's final write, in a transaction held open on its own connection.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query("begin");
    const held = drizzle({ client, schema }) as unknown as Db;
    expect((await finishResult(held, evaluation.id, "q1", "job-1", WRITE)).written).toBe(true);

    // A recount (resume does one) starts now and waits for the evaluation row's lock.
    const recount = recountEvaluation(store.db, evaluation.id);
    let settled = false;
    void recount.finally(() => (settled = true));
    // Committed once it is seen waiting (or, were it not to wait, once it has ended).
    await vi.waitFor(
      async () => {
        if (settled) return;
        const [waiting] = await queryRows<{ n: number }>(
          store.db,
          sql`select count(*)::int as n from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock'`,
        );
        expect(waiting?.n ?? 0).toBeGreaterThan(0);
      },
      { timeout: 20_000, interval: 20 },
    );
    await client.query("commit");
    await recount;
  } finally {
    await client.end();
  }

  const [row] = await queryRows<{ completed_questions: number; scored_questions: number }>(
    store.db,
    sql`select completed_questions, scored_questions from evaluations where id = ${evaluation.id}`,
  );
  // One row is final, so the run has completed one question.
  expect(row).toEqual({ completed_questions: 1, scored_questions: 1 });
}, 60_000);
