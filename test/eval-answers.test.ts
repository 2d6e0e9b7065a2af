import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { type EvaluationWorker, startEvaluationWorker } from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  findOrCreateUser,
  LOCAL_USER_NAME,
  listQuestionSets,
  openStore,
} from "../src/store/index.js";
import { runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { describeEachStore } from "./support/stores.js";
import { tempDir } from "./support/temp-dir.js";

// Issue 14 §1: precomputed answers judged with no bot, over the CLI and the API.

const ANSWERS = [
  {
    question: "When did the Lanting Metro open Line 1?",
    answer: "Line 1 opened on 18 September 2009 [m1].",
    ground_truths: ["18 September 2009", "September 18, 2009"],
    contexts: [
      { node_id: "m1", content: "Line 1 of the Lanting Metro opened on 18 September 2009." },
    ],
    citations: ["m1"],
  },
  { question: "澜汀大学成立于哪一年？", answer: "1952年。", ground_truth: "1952年。" },
];

interface Row {
  id: string;
  status: string;
  bot_id: string;
  question_set_id: string;
}

describeEachStore("POST /api/v1/evaluations with answers", (use) => {
  let server: Awaited<ReturnType<typeof listen>>;
  let jobs: Jobs;
  let worker: EvaluationWorker;

  beforeAll(async () => {
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    worker = startEvaluationWorker({ jobs, clientsFor: () => ({}), watchMs: 50 });
    server = await listen(createApp({ db: use().db, jobs }), { port: 0 });
  });
  afterAll(async () => {
    await worker.stop();
    await server.close();
    await jobs.stop();
  });

  async function tokenOf(name: string) {
    const user = await findOrCreateUser(use().db, name);
    return createApiToken(use().db, user.id);
  }
  const call = async <T>(token: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (response.headers.get("content-type")?.includes("application/json")
        ? JSON.parse(text)
        : text) as T,
    };
  };

  const completed = (token: string, id: string): Promise<Row> =>
    vi.waitFor(
      async () => {
        const { body } = await call<Row>(token, "GET", `/evaluations/${id}`);
        expect(["COMPLETED", "FAILED"]).toContain(body.status);
        return body;
      },
      { timeout: 60_000, interval: 100 },
    );

  it("judges the answers given, imports their questions with every reference, stores the run", async () => {
    const token = await tokenOf("alice");
    const started = await call<Row>(token, "POST", "/evaluations", {
      name: "vendor answers",
      answers: ANSWERS,
      judges: ["offline"],
    });
    expect(started.status).toBe(201);
    expect(started.body.bot_id).toBe("answers");
    const row = await completed(token, started.body.id);
    expect(row.status).toBe("COMPLETED");

    const list = await call<{ items: { id: string }[] }>(
      token,
      "GET",
      `/evaluations/${row.id}/results`,
    );
    const results = await Promise.all(
      list.body.items.map(async (item) => {
        const result = await call<{ rag_answer: string; status: string; judges: unknown }>(
          token,
          "GET",
          `/evaluations/${row.id}/results/${item.id}`,
        );
        return result.body;
      }),
    );
    expect(results.map((r) => [r.rag_answer, r.status])).toEqual([
      [ANSWERS[0]?.answer, "SCORED"],
      [ANSWERS[1]?.answer, "SCORED"],
    ]);
    // The offline judge matched the answer against a reference (exact match on the second).
    expect(JSON.stringify(results[1]?.judges)).toContain('"exact_match":1');

    const exported = await call<string>(
      token,
      "GET",
      `/question-sets/${row.question_set_id}/export?format=jsonl`,
    );
    const first = JSON.parse(exported.body.split("\n")[0] ?? "{}") as Record<string, unknown>;
    expect(first).toMatchObject({
      question_text: ANSWERS[0]?.question,
      ground_truth: "18 September 2009",
      ground_truths: ["18 September 2009", "September 18, 2009"],
    });

    // The same answers again, matched to the set now stored: a second run on one set.
    const again = await call<Row>(token, "POST", "/evaluations", {
      question_set_id: row.question_set_id,
      answers: [...ANSWERS].reverse(),
    });
    expect(again.status).toBe(201);
    expect((await completed(token, again.body.id)).status).toBe("COMPLETED");
  });

  it("rejects bad answers whole, naming each item, and another user's set is 404", async () => {
    const token = await tokenOf("bob");
    const before = (await listQuestionSets(use().db, (await findOrCreateUser(use().db, "bob")).id))
      .length;
    const bad = await call<{ rows: unknown[] }>(token, "POST", "/evaluations", {
      answers: [ANSWERS[0], { ...ANSWERS[1], question: "when did the lanting metro open line 1" }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.rows).toEqual([
      { row: 2, field: "question", message: "the same question as row 1" },
    ]);
    const invalid = await call<{ issues: { path: string }[] }>(token, "POST", "/evaluations", {
      answers: [{ question: "Q?" }],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.issues.map((i) => i.path)).toContain("answers.0.answer");
    const after = (await listQuestionSets(use().db, (await findOrCreateUser(use().db, "bob")).id))
      .length;
    expect(after).toBe(before);

    const alice = await tokenOf("carol");
    const own = await call<Row>(alice, "POST", "/evaluations", { answers: ANSWERS });
    const foreign = await call(token, "POST", "/evaluations", {
      question_set_id: own.body.question_set_id,
      answers: ANSWERS,
    });
    expect(foreign.status).toBe(404);
  });
});

describe("ragjudge eval --answers", () => {
  const dir = tempDir("answers");
  // On a PostgreSQL server database: judging answers is the point, not the store, and each CLI run
  // then skips starting embedded PGlite (eval-cli.test.ts runs `eval` on the embedded home).
  const env: Record<string, string> = { RAGJUDGE_HOME: join(dir, "home") };
  beforeAll(async () => {
    env.DATABASE_URL = await createDatabase(inject("postgresUrl"), "answers");
  });
  const write = (name: string, rows: unknown[]) => {
    const path = join(dir, name);
    writeFileSync(path, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
    return path;
  };

  it("names every bad line and field and stores nothing", async () => {
    const file = write("bad.jsonl", [ANSWERS[0], { question: "Q2?" }, { answer: "no question" }]);
    const run = await runCli(["eval", "--answers", file], { env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("the answers file was not imported (2 invalid lines");
    expect(run.stderr).toContain("line 2: answer: missing");
    expect(run.stderr).toContain("line 3: question: missing");
  }, 60_000);

  it("judges a file of answers with no bot and reports the stored run", async () => {
    const file = write("vendor.jsonl", ANSWERS);
    const run = await runCli(["eval", "--answers", file, "--format", "json", "--lang", "zh"], {
      env,
    });
    expect(run.stderr).toContain("Imported 2 questions from");
    expect(run.code).toBe(0);
    // --lang zh words the summary a person reads in Chinese; the JSON report stays as it is.
    expect(run.stderr).toContain("概要");
    expect(run.stderr).toMatch(/平均得分\s+\d\.\d{3}/);
    expect(run.stderr).not.toContain("average score");
    const report = JSON.parse(run.stdout) as {
      evaluation: { bot_id: string; status: string };
      results: { answer: string; status: string }[];
    };
    expect(report.evaluation).toMatchObject({ bot_id: "answers", status: "COMPLETED" });
    expect(report.results.map((r) => r.answer)).toEqual(ANSWERS.map((a) => a.answer));

    // Only the good file's set was stored.
    const store = await openStore({ databaseUrl: env.DATABASE_URL });
    try {
      const user = await findOrCreateUser(store.db, LOCAL_USER_NAME);
      expect((await listQuestionSets(store.db, user.id)).map((s) => s.name)).toEqual(["vendor"]);
    } finally {
      await store.close();
    }
  }, 120_000);
});
