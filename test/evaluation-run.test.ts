import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from "vitest";
import { loadConfig } from "../src/config/index.js";
import {
  cancelEvaluation,
  pauseEvaluation,
  resumeEvaluation,
  retryEvaluation,
  startEvaluation,
  startEvaluationWorker,
  summarizeResults,
  type EvaluationWorker,
} from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import {
  createQuestionSet,
  findOrCreateUser,
  getEvaluation,
  JOBS_SCHEMA,
  listEvaluationResults,
  queryRows,
  type Store,
} from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const corpusDir = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const QUESTIONS = [
  ["FACTUAL", "When did the Lanting Metro open Line 1?", "Line 1 opened in 2009."],
  ["FACTUAL", "How many lines does the Lanting Metro have?", "The metro has four lines."],
  ["INFERENTIAL", "Why was the flood of 2016 so damaging?", "Heavy rain and a high river."],
  ["USER_DEFINED", "What festival is held in spring?", "The lantern festival."],
] as const;

describeEachStore("evaluation runs", (use, kind) => {
  let jobs: Jobs;
  let worker: EvaluationWorker | undefined;
  let workspaceId: string;
  let collectionId: string;
  let questionSetId: string;
  const config = loadConfig({ cwd: "/nonexistent", env: {} });

  beforeAll(async () => {
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
  });
  afterAll(async () => {
    await jobs.stop();
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });

  beforeEach(async () => {
    const store: Store = use();
    workspaceId = (await findOrCreateUser(store.db, "alice")).id;
    const bot = createBuiltinBot({ db: store.db, workspaceId });
    await bot.ingestPaths([corpusDir], "lanting");
    collectionId = await bot.resolveCollection("lanting");
    const set = await createQuestionSet(
      store.db,
      workspaceId,
      { user_id: workspaceId, name: "lanting basics", collection_id: collectionId },
      QUESTIONS.map(([question_type, question_text, ground_truth]) => ({
        question_type,
        question_text,
        ground_truth,
        question_key: question_text.toLowerCase(),
      })),
    );
    questionSetId = set.id;
  });

  const deps = () => ({ db: use().db, jobs });
  const startWorker = () =>
    (worker = startEvaluationWorker({ jobs, clientsFor: () => ({}), watchMs: 50 }));

  const waitFor = (id: string, statuses: string[]) =>
    vi.waitFor(
      async () => {
        const row = await getEvaluation(use().db, workspaceId, id);
        expect(statuses).toContain(row?.status);
        return row!;
      },
      { timeout: 60_000, interval: 50 },
    );

  /** Resolves once a worker has handled the run's launch job: what it did with the run is done. */
  const launchHandled = (id: string) =>
    expect
      .poll(
        async () => {
          const [row] = await queryRows<{ n: number }>(
            use().db,
            sql`select count(*)::int as n from ${sql.identifier(JOBS_SCHEMA)}.job
                where name = 'evaluation-launch' and data->>'evaluation_id' = ${id}
                  and state = 'completed'`,
          );
          return row?.n ?? 0;
        },
        { timeout: 60_000, interval: 50, message: `the launch job of ${id} handled` },
      )
      .toBeGreaterThan(0);

  async function itemJobsOf(id: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      use().db,
      sql`select count(*)::int as n from ${sql.identifier(JOBS_SCHEMA)}.job
          where name = 'evaluation-item' and data->>'evaluation_id' = ${id}`,
    );
    return row?.n ?? 0;
  }

  it(`runs every question with the offline judges and the built-in bot [${kind}]`, async () => {
    startWorker();
    const config_ = await config;
    const started = await startEvaluation(
      deps(),
      { workspaceId: workspaceId, userId: workspaceId },
      { question_set_id: questionSetId, judges: ["offline"] },
      config_,
      { via: "cli" },
    );
    expect(started.status).toBe("PENDING");
    expect(started.total_questions).toBe(4);
    const done = await waitFor(started.id, ["COMPLETED", "FAILED"]);
    expect(done.status).toBe("COMPLETED");
    const rows = await listEvaluationResults(use().db, workspaceId, done.id);
    expect(rows.map((r) => r.status)).toEqual(["SCORED", "SCORED", "SCORED", "SCORED"]);
    expect(done.completed_questions).toBe(rows.length);
    expect(done.scored_questions).toBe(4);
    for (const row of rows) {
      expect(row.rag_answer?.length).toBeGreaterThan(0);
      expect(row.gate_status).toMatch(/pass|partial|fail|skipped/);
      const offline = (row.judges as { offline: { verdict: Record<string, unknown> } }).offline;
      expect(offline.verdict).toHaveProperty("f1");
      expect(row.attempts).toBe(1);
      // Each citation is one of the stored sources.
      const sources = (row.rag_answer_sources as Array<{ node_id: string }>).map((s) => s.node_id);
      for (const cited of row.rag_citations as string[]) expect(sources).toContain(cited);
    }
    const summary = summarizeResults(rows);
    expect(summary.scored).toBe(4);
    expect(summary.average_score).toBeCloseTo(done.average_score ?? -1, 6);
    expect(Object.keys(summary.by_question_type).sort()).toEqual([
      "FACTUAL",
      "INFERENTIAL",
      "USER_DEFINED",
    ]);
    expect(summary.judges.offline?.count).toBe(4);
  });

  it(`keeps a cancelled run cancelled and refuses to resume or retry it [${kind}]`, async () => {
    const config_ = await config;
    // No worker yet: the run waits PENDING.
    const started = await startEvaluation(
      deps(),
      { workspaceId: workspaceId, userId: workspaceId },
      { question_set_id: questionSetId },
      config_,
      { via: "cli" },
    );
    const paused = await pauseEvaluation(deps(), workspaceId, started.id);
    expect(paused.status).toBe("PAUSED");
    await expect(pauseEvaluation(deps(), workspaceId, started.id)).rejects.toThrow(/PAUSED/);
    const cancelled = await cancelEvaluation(deps(), workspaceId, started.id);
    expect(cancelled.status).toBe("CANCELLED");
    await expect(resumeEvaluation(deps(), workspaceId, started.id)).rejects.toThrow(/CANCELLED/);
    await expect(retryEvaluation(deps(), workspaceId, started.id, "all")).rejects.toThrow(
      /CANCELLED/,
    );
    startWorker();
    await launchHandled(started.id);
    expect(await itemJobsOf(started.id)).toBe(0);
    const after = await getEvaluation(use().db, workspaceId, started.id);
    expect(after?.status).toBe("CANCELLED");
    expect(after?.completed_questions).toBe(0);
  });

  it(`pauses before work, resumes only the unfinished items, and retries all [${kind}]`, async () => {
    const config_ = await config;
    const started = await startEvaluation(
      deps(),
      { workspaceId: workspaceId, userId: workspaceId },
      { question_set_id: questionSetId },
      config_,
      { via: "cli" },
    );
    await pauseEvaluation(deps(), workspaceId, started.id);
    startWorker();
    await launchHandled(started.id);
    expect(await itemJobsOf(started.id)).toBe(0);
    const paused = await getEvaluation(use().db, workspaceId, started.id);
    expect(paused).toMatchObject({ status: "PAUSED", completed_questions: 0 });
    await resumeEvaluation(deps(), workspaceId, started.id);
    const done = await waitFor(started.id, ["COMPLETED"]);
    expect(done.completed_questions).toBe(4);
    const retried = await retryEvaluation(deps(), workspaceId, started.id, "all");
    expect(retried.completed_questions).toBe(0);
    const again = await waitFor(started.id, ["COMPLETED"]);
    const rows = await listEvaluationResults(use().db, workspaceId, again.id);
    expect(rows.every((r) => r.status === "SCORED" && r.attempts === 2)).toBe(true);
    expect(again.completed_questions).toBe(4);
  });

  it(`treats a start that does not say where it came from as an API run [${kind}]`, async () => {
    const config_ = await config;
    // A caller that leaves `via` out (only a cast or plain JavaScript can) must not get the CLI's
    // open network: a loopback bot is refused by the default policy, and nothing is stored.
    const unsaid = {} as Parameters<typeof startEvaluation>[4];
    const loopback = { kind: "http" as const, url: "http://127.0.0.1:9/ask" };
    await expect(
      startEvaluation(
        deps(),
        { workspaceId: workspaceId, userId: workspaceId },
        { question_set_id: questionSetId, bot: loopback },
        config_,
        unsaid,
      ),
    ).rejects.toThrow(/bot\.url: .*127\.0\.0\.1/);
    const started = await startEvaluation(
      deps(),
      { workspaceId: workspaceId, userId: workspaceId },
      { question_set_id: questionSetId },
      config_,
      unsaid,
    );
    expect((started.config as { submitted_via: string }).submitted_via).toBe("api");
  });

  it(`another user's evaluation is not found [${kind}]`, async () => {
    const config_ = await config;
    const started = await startEvaluation(
      deps(),
      { workspaceId: workspaceId, userId: workspaceId },
      { question_set_id: questionSetId },
      config_,
      { via: "cli" },
    );
    const bob = (await findOrCreateUser(use().db, "bob")).id;
    await expect(pauseEvaluation(deps(), bob, started.id)).rejects.toThrow(/not found/);
    expect(await getEvaluation(use().db, bob, started.id)).toBeUndefined();
    await expect(
      startEvaluation(
        deps(),
        { workspaceId: bob, userId: bob },
        { question_set_id: questionSetId },
        config_,
        { via: "cli" },
      ),
    ).rejects.toThrow(/question set .* not found/);
  });
});
