// A PostgreSQL restart mid-run (issue 12 §2.5): `pg_ctl restart` terminates every connection
// (57P01) and refuses new ones for a while. The worker, the `eval` CLI and `serve` must survive
// it, and the run must complete on its own once the server is back: nothing lost, nothing
// duplicated, nothing left RUNNING. Each test restarts a server of its own, so a restart disturbs
// no other test; the three run at once, since most of each is waiting for the server to come back
// and for jobs to expire.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, inject, it, vi } from "vitest";
import { loadConfig } from "../src/config/index.js";
import { startEvaluation } from "../src/evals/runs/index.js";
import { startJobs } from "../src/jobs/index.js";
import {
  createApiToken,
  createEvaluation,
  createQuestionSet,
  findOrCreateUser,
  type NewQuestion,
  openStore,
  queryRows,
  type Store,
  transitionEvaluation,
} from "../src/store/index.js";
import { spawnCli } from "./support/cli.js";
import { openStream } from "./support/event-stream.js";
import { spawnEvalWorker, WORKER_PROCESS_TIMING } from "./support/eval-worker-process.js";
import {
  createDatabase,
  freePort,
  type PostgresServer,
  startPostgresServer,
} from "./support/postgres-server.js";
import { startTestBot, type TestBot } from "./support/test-bot.js";

let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ delayMs: 300 });
});
afterAll(async () => {
  await bot?.close();
});

/** A test with a PostgreSQL server of its own (`server`), stopped when it ends. */
const serverTest = it.extend<{ server: PostgresServer }>({
  // eslint-disable-next-line no-empty-pattern -- vitest reads a fixture's dependencies from this pattern
  server: async ({}, use) => {
    const server = await startPostgresServer(inject("postgresCluster"));
    try {
      await use(server);
    } finally {
      await server.stop();
    }
  },
});

/**
 * Questions per run. With the bot's 300 ms and 4 at once, the rest of a run takes seconds after
 * its fourth result, when the server is restarted: the restart falls mid-run.
 */
const N = 30;

const questions = (n: number, label: string): NewQuestion[] =>
  Array.from({ length: n }, (_, i) => ({
    question_type: "FACTUAL",
    question_text: `What does the record say about ${label} item #${i}?`,
    ground_truth: `The record says something about ${label} ${i}.`,
    question_key: `${label}-${i}`,
  }));

interface Row {
  status: string;
  attempts: number;
  job_id: string | null;
}

/** For vi.waitFor: its callback's errors (a read while the server is down) are waited out. */
const WAIT = { timeout: 120_000, interval: 100 };

const evaluationOf = async (store: Store, id: string) => {
  const [row] = await queryRows<{ status: string; completed_questions: number; scored: number }>(
    store.db,
    sql`select status, completed_questions, scored_questions as scored
        from evaluations where id = ${id}`,
  );
  if (!row) throw new Error(`evaluation ${id} not found`);
  return row;
};

/** Every question once, SCORED, no row held; the run's counters agree. */
async function expectCompleted(store: Store, id: string, n: number) {
  const rows = await queryRows<Row>(
    store.db,
    sql`select status, attempts, job_id from evaluation_results where evaluation_id = ${id}`,
  );
  expect(rows).toHaveLength(n);
  expect(rows.filter((r) => r.status !== "SCORED")).toEqual([]);
  expect(rows.filter((r) => r.job_id !== null)).toEqual([]);
  expect(await evaluationOf(store, id)).toEqual({
    status: "COMPLETED",
    completed_questions: n,
    scored: n,
  });
}

serverTest.concurrent(
  "a worker process survives a restart mid-run, and the run completes on its own",
  async ({ server }) => {
    const databaseUrl = await createDatabase(server.url, "restart");
    const store = await openStore({ databaseUrl });
    const jobs = await startJobs(store, WORKER_PROCESS_TIMING);
    const worker = spawnEvalWorker(["--concurrency", "4"], { DATABASE_URL: databaseUrl });
    try {
      await worker.waitFor((line) => line.event === "ready");
      const user = await findOrCreateUser(store.db, "restart");
      const set = await createQuestionSet(
        store.db,
        user.id,
        { user_id: user.id, name: "r" },
        questions(N, "w"),
      );
      const config = await loadConfig({ cwd: "/nonexistent", env: {} });
      const started = await startEvaluation(
        { db: store.db, jobs },
        { workspaceId: user.id, userId: user.id },
        {
          question_set_id: set.id,
          bot: { kind: "http", url: bot.url, timeout_ms: 10_000, retries: 0 },
          judges: ["offline"],
        },
        config,
        { via: "cli" },
      );
      const mid = await vi.waitFor(async () => {
        const row = await evaluationOf(store, started.id);
        expect(row.completed_questions).toBeGreaterThanOrEqual(4);
        return row;
      }, WAIT);
      expect(mid.completed_questions).toBeLessThan(N);
      await server.restart({ downMs: 1_500 });
      const done = await vi.waitFor(async () => {
        const row = await evaluationOf(store, started.id);
        expect(["PENDING", "RUNNING"]).not.toContain(row.status);
        return row;
      }, WAIT);
      expect(done.status).toBe("COMPLETED");
      await expectCompleted(store, started.id, N);
      // Every question was asked; none twice except the items in flight at the restart.
      const asked = [...bot.byQuestion.keys()].filter((q) => q.includes("about w item"));
      expect(asked).toHaveLength(N);
      expect(worker.lines.some((l) => l.event === "ready")).toBe(true);
    } finally {
      worker.kill("SIGTERM");
      expect(await worker.exited).toBe(0);
      await jobs.stop();
      await store.close();
    }
  },
  180_000,
);

serverTest.concurrent(
  "`ragjudge eval` survives a restart mid-run and reports the completed run (exit 0)",
  async ({ server }) => {
    const databaseUrl = await createDatabase(server.url, "restart_cli");
    const dir = mkdtempSync(join(tmpdir(), "ragjudge-restart-"));
    const file = join(dir, "questions.jsonl");
    writeFileSync(
      file,
      questions(N, "cli")
        .map((q) => JSON.stringify({ question: q.question_text, ground_truth: q.ground_truth }))
        .join("\n"),
    );
    const store = await openStore({ databaseUrl, migrate: false });
    const cli = spawnCli(
      ["eval", "--bot", bot.url, "--questions", file, "--concurrency", "4", "--format", "json"],
      { env: { DATABASE_URL: databaseUrl, RAGJUDGE_HOME: dir } },
    );
    try {
      const [running] = await vi.waitFor(async () => {
        const rows = await queryRows<{ id: string; completed_questions: number }>(
          store.db,
          sql`select id, completed_questions from evaluations`,
        );
        expect(rows[0]?.completed_questions ?? 0).toBeGreaterThanOrEqual(4);
        return rows;
      }, WAIT);
      expect(running?.completed_questions).toBeLessThan(N);
      await server.restart({ downMs: 1_500 });
      const code = await cli.exited;
      expect(code).toBe(0);
      // The terminated connections were reported once and replaced, not an unhandled 'error'.
      expect(cli.err()).toMatch(/lost a database connection \(57P01 terminating connection/);
      const report = JSON.parse(cli.out()) as { evaluation: { status: string }; summary: object };
      expect(report.evaluation.status).toBe("COMPLETED");
      await expectCompleted(store, running?.id ?? "", N);
    } finally {
      cli.child.kill("SIGKILL");
      await cli.exited;
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  180_000,
);

serverTest.concurrent(
  "`ragjudge serve` survives a restart and answers again once the server is back",
  async ({ server }) => {
    const databaseUrl = await createDatabase(server.url, "restart_serve");
    const dir = mkdtempSync(join(tmpdir(), "ragjudge-restart-serve-"));
    const port = await freePort();
    const serve = spawnCli(["serve", "--port", String(port)], {
      env: { DATABASE_URL: databaseUrl, RAGJUDGE_HOME: dir },
    });
    const store = await openStore({ databaseUrl, migrate: false });
    try {
      const list = (token: string) =>
        fetch(`http://127.0.0.1:${port}/api/v1/evaluations`, {
          headers: { authorization: `Bearer ${token}` },
        });
      const token = await vi.waitFor(async () => {
        const user = await findOrCreateUser(store.db, "restart");
        const t = await createApiToken(store.db, user.id);
        expect((await list(t)).ok).toBe(true);
        return t;
      }, WAIT);
      await server.restart({ downMs: 1_500 });
      const again = await vi.waitFor(
        async () => {
          const response = await list(token);
          expect(response.ok).toBe(true);
          return response;
        },
        { ...WAIT, timeout: 30_000 },
      );
      expect(again.status).toBe(200);
      expect(serve.child.exitCode).toBeNull();
    } finally {
      serve.child.kill("SIGTERM");
      await serve.exited;
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  120_000,
);

serverTest.concurrent(
  "a restart ends `serve`'s progress streams with an `error` event, logged once by SQLSTATE",
  async ({ server }) => {
    const databaseUrl = await createDatabase(server.url, "restart_streams");
    const dir = mkdtempSync(join(tmpdir(), "ragjudge-restart-streams-"));
    const port = await freePort();
    const serve = spawnCli(["serve", "--port", String(port), "--no-worker"], {
      env: { DATABASE_URL: databaseUrl, RAGJUDGE_HOME: dir },
    });
    const store = await openStore({ databaseUrl, migrate: false });
    const streams: Array<Awaited<ReturnType<typeof openStream>>> = [];
    try {
      const user = await vi.waitFor(() => findOrCreateUser(store.db, "streams"), WAIT);
      const token = await createApiToken(store.db, user.id);
      // A running run no worker takes: its streams poll until the restart.
      const run = await createEvaluation(store.db, user.id, {
        user_id: user.id,
        name: "followed through a restart",
        bot_id: "builtin",
        judge_llm_model_id: "offline",
        config: {},
        questions: [
          {
            question_id: "q",
            question_type: "FACTUAL",
            question_text: "private question text?",
            ground_truth: "",
          },
        ],
      });
      await transitionEvaluation(store.db, run.id, ["PENDING"], "RUNNING");
      const url = `http://127.0.0.1:${port}/api/v1/evaluations/${run.id}/events`;
      await vi.waitFor(
        async () => expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok).toBe(true),
        WAIT,
      );
      for (let i = 0; i < 3; i++) streams.push(await openStream(url, token));
      for (const stream of streams) {
        expect(stream.status).toBe(200);
        // vi.waitFor, not expect.poll: a concurrent test's global expect is unbound once another
        // concurrent test has ended.
        await vi.waitFor(() => expect(stream.events[0]?.event).toBe("progress"), {
          timeout: 10_000,
        });
      }

      await server.restart({ downMs: 1_500 });
      await Promise.all(streams.map((stream) => stream.ended));
      for (const stream of streams) {
        expect(stream.events.at(-1)).toEqual({
          event: "error",
          data: {
            error: "stream_failed",
            message: expect.stringMatching(/lost contact with its database/) as unknown,
          },
        });
      }
      // One line for the run's one poller, by SQLSTATE or the connection's own error: no SQL,
      // no parameters (the run's and user's ids), no stack.
      const log = serve.err();
      expect(log.match(/progress streams of a run ended/g)).toHaveLength(1);
      expect(log).toMatch(
        /progress streams of a run ended: (database error [0-9A-Z]{5}|query failed \(parameters withheld\))/,
      );
      for (const leak of [/select/i, /params/i, /DrizzleQueryError/, run.id, user.id, /\n\s+at /]) {
        expect(log).not.toMatch(leak);
      }
      expect(serve.child.exitCode).toBeNull();
    } finally {
      for (const stream of streams) stream.close();
      serve.child.kill("SIGTERM");
      await serve.exited;
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
  120_000,
);
