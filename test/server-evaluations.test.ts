import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { type EvaluationWorker, startEvaluationWorker } from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createBuiltinBot, DEFAULT_LOOPS_CONFIG, RetrievalConfigSchema } from "../src/rag/index.js";
import { createApp, listen } from "../src/server/index.js";
import { createApiToken, findOrCreateUser } from "../src/store/index.js";
import { describeEachStore } from "./support/stores.js";

const corpusDir = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const QUESTIONS = [
  {
    question_type: "FACTUAL",
    question_text: "When did the Lanting Metro open Line 1?",
    ground_truth: "Line 1 opened in 2009.",
  },
  {
    question_type: "FACTUAL",
    question_text: "How many lines does the Lanting Metro have?",
    ground_truth: "The metro has four lines.",
  },
  {
    question_type: "INFERENTIAL",
    question_text: "Why was the flood of 2016 so damaging?",
    ground_truth: "Heavy rain and a high river.",
  },
];

// Observations are not written to the working directory by tests.
const config = {
  rag: {
    loops: {
      ...DEFAULT_LOOPS_CONFIG,
      observations: { ...DEFAULT_LOOPS_CONFIG.observations, path: null },
    },
    retrieval: RetrievalConfigSchema.parse({}),
  },
};

interface Evaluation {
  id: string;
  status: string;
  total_questions: number;
  completed_questions: number;
  config: Record<string, unknown>;
}

interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads a whole event stream (it ends after `end`). */
async function readEvents(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  return (
    text
      .split("\n\n")
      // Comment-only blocks (keep-alives) carry no event.
      .filter((block) => block.split("\n").some((line) => line.startsWith("data: ")))
      .map((block) => {
        const lines = block.split("\n");
        const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
        const data = lines
          .filter((l) => l.startsWith("data: "))
          .map((l) => l.slice(6))
          .join("\n");
        return { event, data: JSON.parse(data) as unknown };
      })
  );
}

describeEachStore("HTTP API: evaluations", (use) => {
  // Requests go through Hono's app.request(), in process; the event streams over a real socket,
  // where Node's adapter and its buffering are part of what is checked.
  let app: ReturnType<typeof createApp>;
  let server: Awaited<ReturnType<typeof listen>>;
  let jobs: Jobs;
  let worker: EvaluationWorker | undefined;

  beforeAll(async () => {
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    app = createApp({ db: use().db, jobs, config });
    server = await listen(app, { port: 0 });
  });
  afterEach(async () => {
    await worker?.stop();
    worker = undefined;
  });
  afterAll(async () => {
    await server.close();
    await jobs.stop();
  });

  const startWorker = () =>
    (worker = startEvaluationWorker({ jobs, clientsFor: () => ({}), watchMs: 50 }));

  async function userOf(name: string) {
    const { db } = use();
    const user = await findOrCreateUser(db, name);
    return { id: user.id, token: await createApiToken(db, user.id) };
  }
  const call = (token: string, method: string, path: string, body?: unknown) =>
    app.request(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const json = async <T>(response: Response | Promise<Response>) =>
    (await (await response).json()) as T;

  /** A user with the example corpus ingested and a question set over it, made over HTTP. */
  async function setUp(name = "alice") {
    const user = await userOf(name);
    const bot = createBuiltinBot({ db: use().db, workspaceId: user.id });
    await bot.ingestPaths([corpusDir], "lanting");
    const collectionId = await bot.resolveCollection("lanting");
    const set = await json<{ id: string }>(
      call(user.token, "POST", "/question-sets", {
        name: "lanting",
        collection_id: collectionId,
        questions: QUESTIONS,
      }),
    );
    return { ...user, collectionId, setId: set.id };
  }

  const waitFor = (token: string, id: string, statuses: string[]) =>
    vi.waitFor(
      async () => {
        const row = await json<Evaluation>(call(token, "GET", `/evaluations/${id}`));
        expect(statuses).toContain(row.status);
        return row;
      },
      { timeout: 90_000, interval: 100 },
    );

  it("runs an evaluation started over HTTP to completion, streaming progress and results", async () => {
    const alice = await setUp();
    const started = await call(alice.token, "POST", "/evaluations", {
      question_set_id: alice.setId,
      judges: ["offline"],
      name: "first run",
    });
    expect(started.status).toBe(201);
    const evaluation = (await started.json()) as Evaluation;
    expect(evaluation).toMatchObject({ status: "PENDING", total_questions: 3, name: "first run" });
    expect(evaluation).not.toHaveProperty("user_id");
    expect(JSON.stringify(evaluation.config)).not.toMatch(/api_key|sk-/i);

    const stream = await fetch(`${server.url}/api/v1/evaluations/${evaluation.id}/events`, {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("content-type")).toContain("text/event-stream");
    startWorker();
    const events = await readEvents(stream);

    const progress = events.filter((e) => e.event === "progress").map((e) => e.data);
    expect(progress[0]).toMatchObject({ completed: 0, total: 3, percent: 0, status: "PENDING" });
    expect(progress.at(-1)).toMatchObject({
      completed: 3,
      total: 3,
      percent: 100,
      status: "COMPLETED",
    });
    for (const p of progress) expect(p).toHaveProperty("eta_seconds");
    const results = events.filter((e) => e.event === "result").map((e) => e.data);
    expect(results).toHaveLength(3);
    expect(new Set(results.map((r) => (r as { question_text: string }).question_text))).toEqual(
      new Set(QUESTIONS.map((q) => q.question_text)),
    );
    for (const result of results) {
      expect(result).toMatchObject({ status: "SCORED" });
      expect(result).not.toHaveProperty("user_id");
    }
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "COMPLETED" } });

    const detail = await json<{
      status: string;
      progress: { percent: number; completed: number };
      summary: { scored: number; total: number; judges: { offline?: { count: number } } };
      results: Array<{ status: string; answer_length: number }>;
    }>(call(alice.token, "GET", `/evaluations/${evaluation.id}`));
    expect(detail.status).toBe("COMPLETED");
    expect(detail.progress).toMatchObject({ percent: 100, completed: 3 });
    expect(detail.summary).toMatchObject({ scored: 3, total: 3 });
    expect(detail.summary.judges.offline?.count).toBe(3);
    expect(detail.results).toHaveLength(3);
    expect(detail.results.every((r) => r.answer_length > 0)).toBe(true);

    const page = await json<{ items: Array<{ position: number }> }>(
      call(
        alice.token,
        "GET",
        `/evaluations/${evaluation.id}/results?status=scored&offset=1&limit=1`,
      ),
    );
    expect(page.items.map((r) => r.position)).toEqual([1]);
    const none = await json<{ items: unknown[] }>(
      call(
        alice.token,
        "GET",
        `/evaluations/${evaluation.id}/results?status=BOT_ERROR,JUDGE_ERROR`,
      ),
    );
    expect(none.items).toEqual([]);
    expect(
      (await call(alice.token, "GET", `/evaluations/${evaluation.id}/results?status=LOST`)).status,
    ).toBe(400);

    const list = await json<{ items: Array<{ id: string; progress: { percent: number } }> }>(
      call(alice.token, "GET", "/evaluations"),
    );
    expect(list.items.map((e) => [e.id, e.progress.percent])).toEqual([[evaluation.id, 100]]);

    // A stream opened on a finished run replays its results and ends at once.
    const replay = await readEvents(
      await fetch(`${server.url}/api/v1/evaluations/${evaluation.id}/events`, {
        headers: { authorization: `Bearer ${alice.token}` },
      }),
    );
    expect(replay.map((e) => e.event)).toEqual(["progress", "result", "result", "result", "end"]);

    expect((await call(alice.token, "DELETE", `/evaluations/${evaluation.id}`)).status).toBe(204);
    expect((await call(alice.token, "GET", `/evaluations/${evaluation.id}`)).status).toBe(404);
    expect((await call(alice.token, "DELETE", `/evaluations/${evaluation.id}`)).status).toBe(404);
  });

  it("pauses, resumes, retries and cancels, answering 409 with the current status", async () => {
    const alice = await setUp();
    // No worker yet: the run waits PENDING.
    const run = await json<Evaluation>(
      call(alice.token, "POST", "/evaluations", { question_set_id: alice.setId }),
    );
    const retryEarly = await call(alice.token, "POST", `/evaluations/${run.id}/retry`);
    expect(retryEarly.status).toBe(409);
    expect(((await retryEarly.json()) as { message: string }).message).toMatch(/PENDING/);
    expect((await call(alice.token, "POST", `/evaluations/${run.id}/resume`)).status).toBe(409);

    const paused = await call(alice.token, "POST", `/evaluations/${run.id}/pause`);
    expect(paused.status).toBe(200);
    expect(((await paused.json()) as Evaluation).status).toBe("PAUSED");
    const again = await call(alice.token, "POST", `/evaluations/${run.id}/pause`);
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toMatch(/PAUSED/);

    startWorker();
    const resumed = await call(alice.token, "POST", `/evaluations/${run.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(((await resumed.json()) as Evaluation).status).toBe("RUNNING");
    const done = await waitFor(alice.token, run.id, ["COMPLETED", "FAILED"]);
    expect(done.status).toBe("COMPLETED");
    expect((await call(alice.token, "POST", `/evaluations/${run.id}/pause`)).status).toBe(409);
    const cancelDone = await call(alice.token, "POST", `/evaluations/${run.id}/cancel`);
    expect(cancelDone.status).toBe(409);
    expect(((await cancelDone.json()) as { message: string }).message).toMatch(/COMPLETED/);

    expect(
      (await call(alice.token, "POST", `/evaluations/${run.id}/retry`, { scope: "some" })).status,
    ).toBe(400);
    const retried = await call(alice.token, "POST", `/evaluations/${run.id}/retry`, {
      scope: "all",
    });
    expect(retried.status).toBe(200);
    expect(((await retried.json()) as Evaluation).completed_questions).toBe(0);
    const redone = await waitFor(alice.token, run.id, ["COMPLETED", "FAILED"]);
    expect(redone).toMatchObject({ status: "COMPLETED", completed_questions: 3 });
    // Nothing failed: retrying the failed items (the default scope) completes at once.
    expect((await call(alice.token, "POST", `/evaluations/${run.id}/retry`)).status).toBe(200);
    await waitFor(alice.token, run.id, ["COMPLETED"]);

    await worker?.stop();
    worker = undefined;
    const second = await json<Evaluation>(
      call(alice.token, "POST", "/evaluations", { question_set_id: alice.setId }),
    );
    const cancelled = await call(alice.token, "POST", `/evaluations/${second.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as Evaluation).status).toBe("CANCELLED");
    for (const operation of ["resume", "retry", "pause", "cancel"]) {
      const response = await call(alice.token, "POST", `/evaluations/${second.id}/${operation}`);
      expect(response.status, operation).toBe(409);
      expect(((await response.json()) as { message: string }).message).toMatch(/CANCELLED/);
    }
    const ended = await readEvents(
      await fetch(`${server.url}/api/v1/evaluations/${second.id}/events`, {
        headers: { authorization: `Bearer ${alice.token}` },
      }),
    );
    expect(ended).toEqual([
      {
        event: "progress",
        data: { completed: 0, total: 3, percent: 0, eta_seconds: null, status: "CANCELLED" },
      },
      { event: "end", data: { status: "CANCELLED" } },
    ]);
  });

  it("answers another user's ids as not found and names bad fields", async () => {
    const alice = await setUp();
    const bob = await userOf("bob");
    const run = await json<Evaluation>(
      call(alice.token, "POST", "/evaluations", { question_set_id: alice.setId }),
    );
    for (const [method, path] of [
      ["GET", `/evaluations/${run.id}`],
      ["GET", `/evaluations/${run.id}/results`],
      ["GET", `/evaluations/${run.id}/results/${run.id}`],
      ["GET", `/evaluations/${run.id}/events`],
      ["POST", `/evaluations/${run.id}/pause`],
      ["POST", `/evaluations/${run.id}/resume`],
      ["POST", `/evaluations/${run.id}/cancel`],
      ["POST", `/evaluations/${run.id}/retry`],
      ["DELETE", `/evaluations/${run.id}`],
      ["GET", "/evaluations/not-a-uuid"],
      ["POST", "/evaluations/not-a-uuid/pause"],
    ] as const) {
      expect((await call(bob.token, method, path)).status, `${method} ${path}`).toBe(404);
    }
    expect(
      (await json<{ items: unknown[] }>(call(bob.token, "GET", "/evaluations"))).items,
    ).toEqual([]);
    const foreignSet = await call(bob.token, "POST", "/evaluations", {
      question_set_id: alice.setId,
    });
    expect(foreignSet.status).toBe(404);
    expect(((await foreignSet.json()) as { message: string }).message).toMatch(/question set/);

    const invalid = await call(alice.token, "POST", "/evaluations", {
      question_set_id: "nope",
      judges: ["psychic"],
    });
    expect(invalid.status).toBe(400);
    const paths = ((await invalid.json()) as { issues: Array<{ path: string }> }).issues.map(
      (i) => i.path,
    );
    expect(paths).toEqual(expect.arrayContaining(["question_set_id", "judges.0"]));
    // An LLM judge with no judge model configured is refused, naming the field.
    const noJudge = await call(alice.token, "POST", "/evaluations", {
      question_set_id: alice.setId,
      judges: ["reference"],
    });
    expect(noJudge.status).toBe(400);
    expect(((await noJudge.json()) as { issues: Array<{ path: string }> }).issues[0]?.path).toBe(
      "judges",
    );
    // Alice's run is untouched.
    expect(
      (await json<Evaluation>(call(alice.token, "GET", `/evaluations/${run.id}`))).status,
    ).toBe("PENDING");
  });

  it("answers 503 for work that needs jobs when none are attached, and lists every route in OpenAPI", async () => {
    const alice = await setUp();
    const bare = createApp({ db: use().db, config });
    const post = (path: string, body: unknown) =>
      bare.request(`/api/v1${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${alice.token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const refused = await post("/evaluations", { question_set_id: alice.setId });
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { message: string }).message).toMatch(/job queue/);
    expect((await post("/question-sets/generate", { collection_id: "lanting", n: 2 })).status).toBe(
      503,
    );
    const listed = await bare.request("/api/v1/evaluations", {
      headers: { authorization: `Bearer ${alice.token}` },
    });
    expect(listed.status).toBe(200);

    const doc = (await (await bare.request("/api/v1/openapi.json")).json()) as {
      paths: Record<string, Record<string, unknown>>;
      components: { schemas: Record<string, unknown> };
    };
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        "GET /api/v1/question-sets",
        "POST /api/v1/question-sets",
        "POST /api/v1/question-sets/import",
        "POST /api/v1/question-sets/generate",
        "GET /api/v1/question-sets/generations/{id}",
        "GET /api/v1/question-sets/{id}",
        "PUT /api/v1/question-sets/{id}",
        "DELETE /api/v1/question-sets/{id}",
        "GET /api/v1/question-sets/{id}/export",
        "POST /api/v1/question-sets/{id}/questions",
        "PUT /api/v1/question-sets/questions/{id}",
        "DELETE /api/v1/question-sets/questions/{id}",
        "GET /api/v1/evaluations",
        "POST /api/v1/evaluations",
        "GET /api/v1/evaluations/{id}",
        "DELETE /api/v1/evaluations/{id}",
        "GET /api/v1/evaluations/{id}/results",
        "GET /api/v1/evaluations/{id}/results/{resultId}",
        "GET /api/v1/evaluations/{id}/events",
        "POST /api/v1/evaluations/{id}/pause",
        "POST /api/v1/evaluations/{id}/resume",
        "POST /api/v1/evaluations/{id}/cancel",
        "POST /api/v1/evaluations/{id}/retry",
      ]),
    );
    for (const name of [
      "CreateQuestionSet",
      "ImportQuestionSet",
      "GenerateQuestionsRequest",
      "EvaluationRequest",
      "RetryRequest",
    ]) {
      expect(doc.components.schemas, name).toHaveProperty(name);
    }
    // Every $ref points at a component that exists.
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map(
      (m) => m[1] as string,
    );
    for (const ref of new Set(refs)) expect(doc.components.schemas, ref).toHaveProperty(ref);
  });
});
