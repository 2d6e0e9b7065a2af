import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { workerClients } from "../src/config/index.js";
import { type ArenaWorker, startArenaWorker } from "../src/evals/arena/index.js";
import { type EvaluationWorker, startEvaluationWorker } from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { parseLlmConfig } from "../src/llm/index.js";
import { createApp, listen } from "../src/server/index.js";
import {
  createApiToken,
  createArena,
  findOrCreateUser,
  getArenaForWorker,
  JOBS_SCHEMA,
  touchPendingArena,
} from "../src/store/index.js";
import { runCli } from "./support/cli.js";
import { createDatabase } from "./support/postgres-server.js";
import { isChat, promptText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { describeEachStore } from "./support/stores.js";
import { tempDir } from "./support/temp-dir.js";

// Issue 14 §2: the arena over the API (stored, per user) and the CLI, with the scripted judge.

const QUESTIONS = [
  ["When did Line 1 open?", "18 September 2009"],
  ["How long is the stone quay?", "140 metres"],
  ["How many buildings burned in 1869?", "412 buildings"],
  ["Who led the salt merchants?", "Wei Chenghai"],
  ["澜汀大学成立于哪一年？", "1952年"],
  ["What river flows through Lanting?", "the Jade River"],
] as const;

const exact = QUESTIONS.map(([question, truth]) => ({ question, answer: `${truth}.` }));
const wrong = QUESTIONS.map(([question]) => ({ question, answer: "Nobody knows; perhaps 1066." }));
const half = QUESTIONS.map(([question, truth], i) => ({
  question,
  answer: i % 2 === 0 ? `${truth}.` : "I am not sure.",
}));
/** The question whose pairwise verdicts the scripted judge garbles: a judge error, not a tie. */
const GARBLED = "What river flows through Lanting?";

interface Arena {
  id: string;
  status: string;
  status_reason: string | null;
  config: { contestants: { name: string; evaluation_id: string; source: string }[] };
  results: {
    contestants: {
      name: string;
      rating: number;
      ci: [number, number];
      win_rate: number;
      wins: number;
      ties: number;
      losses: number;
    }[];
    matrix: { names: string[]; cells: ({ wins: number; ties: number; losses: number } | null)[][] };
    pairs: { a: string; b: string; wins: number; ties: number; losses: number; missing: number }[];
    flip_rate?: Record<string, { judged: number; flipped: number; rate: number }>;
    judge_errors?: { question_id: string; message: string }[];
  } | null;
}

interface Questions {
  total: number;
  items: {
    position: number;
    question_text: string;
    answers: {
      contestant: string;
      answer: string | null;
      score: number | null;
      reasoning: string | null;
    }[];
    pairs: {
      a: string;
      b: string;
      outcome: string;
      flipped: boolean | null;
      reasoning: string[];
      error: string | null;
    }[];
  }[];
}

describeEachStore("arenas over the API", (use) => {
  let server: Awaited<ReturnType<typeof listen>>;
  let jobs: Jobs;
  let worker: EvaluationWorker;
  let arenaWorker: ArenaWorker;
  let llm: ScriptedLlm;
  let startArenas: () => ArenaWorker;

  beforeAll(async () => {
    // A judge that always prefers the answer shown first, and garbles one question.
    llm = await startScriptedLlm({
      rules: [
        {
          when: (r) => isChat(r) && promptText(r).includes(GARBLED),
          reply: { content: "the first one, I think" },
        },
        { when: isChat, reply: { auto: { reasoning: "A reads better.", verdict: "A" } } },
      ],
    });
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    worker = startEvaluationWorker({ jobs, clientsFor: () => ({}), watchMs: 50 });
    const llmConfig = parseLlmConfig({
      base_url: llm.baseUrl,
      api_key: "sk-arena-secret",
      roles: { judge: { model: "first-position-judge" } },
    });
    // The arenas' comparisons run in their own worker, on the job queue, as `ragjudge serve` does.
    startArenas = () =>
      startArenaWorker({
        jobs,
        clientsFor: workerClients(use().db, llmConfig),
        recheckSeconds: 0.2,
      });
    arenaWorker = startArenas();
    server = await listen(createApp({ db: use().db, jobs, llm: llmConfig }), { port: 0 });
  });
  afterAll(async () => {
    await arenaWorker.stop();
    await worker.stop();
    await server.close();
    await jobs.stop();
    await llm.close();
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
    return { status: response.status, body: (await response.json()) as T };
  };
  const finished = (token: string, id: string): Promise<Arena> =>
    vi.waitFor(
      async () => {
        const { body } = await call<Arena>(token, "GET", `/arenas/${id}`);
        expect(["PENDING", "RUNNING"]).not.toContain(body.status);
        return body;
      },
      { timeout: 90_000, interval: 150 },
    );
  async function questionSet(token: string) {
    const { body } = await call<{ id: string }>(token, "POST", "/question-sets", {
      name: "arena set",
      questions: QUESTIONS.map(([question_text, ground_truth]) => ({
        question_text,
        ground_truth,
      })),
    });
    return body.id;
  }

  it("compares by offline scores: stored results, reused runs, and another user's ids are 404", async () => {
    const alice = await tokenOf("alice");
    const setId = await questionSet(alice);
    const reused = await call<{ id: string }>(alice, "POST", "/evaluations", {
      question_set_id: setId,
      answers: half,
    });
    const started = await call<Arena>(alice, "POST", "/arenas", {
      question_set_id: setId,
      rounds: 200,
      contestants: [
        { name: "exact", answers: exact },
        { name: "wrong", answers: wrong },
        { name: "half", evaluation_id: reused.body.id },
      ],
    });
    expect(started.status).toBe(201);
    // Stored, queued for a worker: the answer does not wait for the comparison.
    expect(started.body.status).toBe("PENDING");
    expect(started.body.results).toBeNull();
    expect(started.body.config.contestants.map((c) => [c.name, c.source])).toEqual([
      ["exact", "answers"],
      ["wrong", "answers"],
      ["half", "evaluation"],
    ]);
    // The snapshot keeps evaluation ids, never the answers themselves.
    expect(JSON.stringify(started.body.config)).not.toContain("Nobody knows");
    expect(started.body.config.contestants[2]?.evaluation_id).toBe(reused.body.id);

    const arena = await finished(alice, started.body.id);
    expect(arena.status).toBe("COMPLETED");
    const results = arena.results!;
    expect(results.contestants.map((c) => c.name)).toEqual(["exact", "half", "wrong"]);
    const top = results.contestants[0]!;
    expect(top.ci[0]).toBeLessThanOrEqual(top.rating);
    expect(top.ci[1]).toBeGreaterThanOrEqual(top.rating);
    expect(top.win_rate).toBeCloseTo(
      (top.wins + top.ties / 2) / (top.wins + top.ties + top.losses),
      4,
    );
    const exactVsWrong = results.matrix.cells[0]![1]!;
    expect(exactVsWrong.wins).toBe(6);
    expect(results.matrix.cells[1]![0]).toEqual({
      wins: exactVsWrong.losses,
      ties: exactVsWrong.ties,
      losses: exactVsWrong.wins,
    });

    // The self-contained HTML report of the stored results, for its owner only.
    const report = await fetch(`${server.url}/api/v1/arenas/${arena.id}/report.html`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(report.status).toBe(200);
    expect(report.headers.get("content-type")).toContain("text/html");
    const html = await report.text();
    expect(html).toContain("<svg");
    expect(html).toContain("exact");
    expect(html).not.toMatch(/<script|src="http/);

    const bob = await tokenOf("bob");
    expect((await call(bob, "GET", `/arenas/${arena.id}`)).status).toBe(404);
    expect((await call(bob, "GET", `/arenas/${arena.id}/report.html`)).status).toBe(404);
    expect((await call<{ items: unknown[] }>(bob, "GET", "/arenas")).body.items).toEqual([]);
    expect((await call(bob, "GET", "/arenas/not-a-uuid")).status).toBe(404);
    const foreignSet = await call(bob, "POST", "/arenas", {
      question_set_id: setId,
      contestants: [
        { name: "a", answers: exact },
        { name: "b", answers: wrong },
      ],
    });
    expect(foreignSet.status).toBe(404);
    const bobSet = await questionSet(bob);
    const foreignRun = await call(bob, "POST", "/arenas", {
      question_set_id: bobSet,
      contestants: [
        { name: "a", answers: exact },
        { name: "b", evaluation_id: reused.body.id },
      ],
    });
    expect(foreignRun.status).toBe(404);
  });

  it("reads an arena question by question, marks the runs it started, and deletes it with them", async () => {
    const ivy = await tokenOf("ivy");
    const setId = await questionSet(ivy);
    const reused = await call<{ id: string }>(ivy, "POST", "/evaluations", {
      name: "ivy's own run",
      question_set_id: setId,
      answers: half,
    });
    const started = await call<Arena>(ivy, "POST", "/arenas", {
      name: "ivy's arena",
      question_set_id: setId,
      rounds: 200,
      contestants: [
        { name: "exact", answers: exact },
        { name: "wrong", answers: wrong },
        { name: "half", evaluation_id: reused.body.id },
      ],
    });
    const arena = await finished(ivy, started.body.id);
    expect(arena.status).toBe("COMPLETED");
    const [exactRun, wrongRun] = arena.config.contestants.map((c) => c.evaluation_id);

    // Who won each question, by the offline judge's stored scores and its reasoning.
    const page = await call<Questions>(
      ivy,
      "GET",
      `/arenas/${arena.id}/questions?limit=2&offset=1`,
    );
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(QUESTIONS.length);
    expect(page.body.items.map((i) => [i.position, i.question_text])).toEqual([
      [1, QUESTIONS[1][0]],
      [2, QUESTIONS[2][0]],
    ]);
    const item = page.body.items[0]!;
    expect(item.answers.map((a) => [a.contestant, a.answer])).toEqual([
      ["exact", exact[1]!.answer],
      ["wrong", wrong[1]!.answer],
      ["half", half[1]!.answer],
    ]);
    expect(item.answers[0]!.score).toBeGreaterThan(item.answers[1]!.score!);
    expect(item.answers.every((a) => typeof a.reasoning === "string" && a.reasoning !== "")).toBe(
      true,
    );
    expect(item.pairs.find((p) => p.a === "exact" && p.b === "wrong")).toMatchObject({
      outcome: "a",
      flipped: null,
    });
    const tooMany = await call(ivy, "GET", `/arenas/${arena.id}/questions?limit=501`);
    expect(tooMany.status).toBe(400);

    // The run list marks the runs the arena started as its own, not the reused one.
    const runs = await call<{
      items: { id: string; arena: { id: string; contestant: string } | null }[];
    }>(ivy, "GET", "/evaluations");
    const arenaOf = (id: string) => runs.body.items.find((r) => r.id === id)?.arena ?? null;
    expect(arenaOf(exactRun!)).toMatchObject({
      id: arena.id,
      name: "ivy's arena",
      contestant: "exact",
    });
    expect(arenaOf(wrongRun!)).toMatchObject({ id: arena.id, contestant: "wrong" });
    expect(arenaOf(reused.body.id)).toBeNull();

    // Another user can neither read nor delete it.
    const bob = await tokenOf("bob");
    expect((await call(bob, "GET", `/arenas/${arena.id}/questions`)).status).toBe(404);
    expect((await call(bob, "DELETE", `/arenas/${arena.id}`)).status).toBe(404);
    expect((await call(ivy, "GET", `/arenas/${arena.id}`)).status).toBe(200);

    // Its owner deletes it: the arena and the runs it started go, the reused run stays.
    const deleted = await fetch(`${server.url}/api/v1/arenas/${arena.id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${ivy}` },
    });
    expect(deleted.status).toBe(204);
    expect((await call(ivy, "GET", `/arenas/${arena.id}`)).status).toBe(404);
    expect((await call(ivy, "DELETE", `/arenas/${arena.id}`)).status).toBe(404);
    expect((await call(ivy, "GET", `/evaluations/${exactRun}`)).status).toBe(404);
    expect((await call(ivy, "GET", `/evaluations/${wrongRun}`)).status).toBe(404);
    expect((await call(ivy, "GET", `/evaluations/${reused.body.id}`)).status).toBe(200);
  });

  it("runs a built-in contestant under its own loop settings, and refuses them for others", async () => {
    const erin = await tokenOf("erin");
    const setId = await questionSet(erin);
    expect((await call(erin, "POST", "/collections", { name: "empty" })).status).toBe(201);
    const started = await call<Arena>(erin, "POST", "/arenas", {
      question_set_id: setId,
      contestants: [
        {
          name: "chinese",
          bot: { kind: "builtin" },
          collection_id: "empty",
          loops: { language: "zh" },
        },
        { name: "default", bot: { kind: "builtin" }, collection_id: "empty" },
      ],
    });
    expect(started.status).toBe(201);
    const languages = await Promise.all(
      started.body.config.contestants.map(async (c) => {
        const run = await call<{ config: { rag: { loops: { language: string } } } }>(
          erin,
          "GET",
          `/evaluations/${c.evaluation_id}`,
        );
        return run.body.config.rag.loops.language;
      }),
    );
    expect(languages).toEqual(["zh", "auto"]);
    const refused = await call<{ issues: { path: string }[] }>(erin, "POST", "/arenas", {
      question_set_id: setId,
      contestants: [
        { name: "a", answers: exact, loops: { language: "zh" } },
        { name: "b", answers: wrong },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues.map((i) => i.path)).toContain("contestants.0.loops");
  });

  it("names a contestant whose answers do not fit the set, and starts nothing", async () => {
    const carol = await tokenOf("carol");
    const setId = await questionSet(carol);
    const before = await call<{ items: unknown[] }>(carol, "GET", "/evaluations");
    const bad = await call<{ contestant: string; rows: { row: number; field: string }[] }>(
      carol,
      "POST",
      "/arenas",
      {
        question_set_id: setId,
        contestants: [
          { name: "ok", answers: exact },
          { name: "stray", answers: [...exact, { question: "Elsewhere?", answer: "x" }] },
        ],
      },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.contestant).toBe("stray");
    expect(bad.body.rows).toEqual([
      { row: 7, field: "question", message: "not a question of the set" },
    ]);
    const after = await call<{ items: unknown[] }>(carol, "GET", "/evaluations");
    expect(after.body.items.length).toBe(before.body.items.length);
  });

  it("pairwise: a judge that always prefers the first position makes every pair a tie, flip rate 1.0; errors kept apart", async () => {
    llm.requests.length = 0;
    const dave = await tokenOf("dave");
    const setId = await questionSet(dave);
    const started = await call<Arena>(dave, "POST", "/arenas", {
      question_set_id: setId,
      judge: "pairwise",
      rounds: 200,
      contestants: [
        { name: "exact", answers: exact },
        { name: "wrong", answers: wrong },
        { name: "half", answers: half },
      ],
    });
    expect(started.status).toBe(201);
    const arena = await finished(dave, started.body.id);
    expect(arena.status).toBe("COMPLETED");
    const results = arena.results!;
    // 3 pairs x 5 judged questions, each judged in both orders.
    for (const pair of results.pairs) {
      expect([pair.wins, pair.ties, pair.losses, pair.missing]).toEqual([0, 5, 0, 1]);
    }
    expect(results.flip_rate).toEqual({
      "first-position-judge": { judged: 15, flipped: 15, rate: 1 },
    });
    expect(results.judge_errors).toHaveLength(3);
    expect(results.contestants.every((c) => c.ties === 10 && c.wins === 0 && c.losses === 0)).toBe(
      true,
    );
    // The judge's every call is accounted, by model; a model without a price is named as such
    // and never priced by a guess. Each contestant carries its own run's cost (offline: none).
    const judgeCost = (
      results as {
        judge_cost?: {
          by_model: { model: string; calls: number; cost_usd: number | null }[];
          total: { cost_usd: number; prompt_tokens: number; unpriced_models: string[] };
        };
      }
    ).judge_cost;
    // Every request the server got is counted; answers from ragjudge's own response cache count
    // too, with their original tokens (docs/cost.md), so a re-run reports the same cost.
    expect(judgeCost?.by_model).toEqual([
      expect.objectContaining({ role: "judge", model: "first-position-judge", cost_usd: null }),
    ]);
    expect(judgeCost?.by_model[0]?.calls).toBeGreaterThanOrEqual(
      llm.requests.filter(isChat).length,
    );
    expect(judgeCost?.total.prompt_tokens).toBeGreaterThan(0);
    expect(judgeCost?.total.unpriced_models).toEqual(["first-position-judge"]);
    expect(judgeCost?.total.cost_usd).toBe(0);
    // Both orders were asked: the first answer's text appears first in one and second in the other.
    const prompts = llm.requests.filter(isChat).map(promptText);
    const exactFirst = prompts.filter(
      (p) => p.includes("Answer A\n18 September 2009.") && p.includes("Answer B\nNobody knows"),
    );
    const wrongFirst = prompts.filter(
      (p) => p.includes("Answer A\nNobody knows") && p.includes("Answer B\n18 September 2009."),
    );
    expect(exactFirst.length).toBeGreaterThan(0);
    expect(wrongFirst.length).toBeGreaterThan(0);
    expect(JSON.stringify(arena)).not.toContain("sk-arena-secret");

    // Question by question (issue 23 §3): every judged pair a tie from a position flip, with the
    // judge's reasoning in both orders; the garbled question a judge error, not a tie.
    const byQuestion = await call<Questions>(dave, "GET", `/arenas/${arena.id}/questions`);
    expect(byQuestion.status).toBe(200);
    expect(byQuestion.body.total).toBe(QUESTIONS.length);
    for (const item of byQuestion.body.items) {
      expect(item.answers.map((a) => a.contestant)).toEqual(["exact", "wrong", "half"]);
      for (const pair of item.pairs) {
        if (item.question_text === GARBLED) {
          expect(pair).toMatchObject({ outcome: "judge_error", flipped: null });
          expect(pair.error).not.toBeNull();
        } else {
          expect(pair).toMatchObject({
            outcome: "tie",
            flipped: true,
            reasoning: ["A reads better.", "A reads better."],
          });
        }
      }
    }
    // The per-question verdicts are paged there, not carried by every read of the arena.
    expect(JSON.stringify(arena.results)).not.toContain('"verdicts"');
  });

  it("stores FAILED with the reason when the worker cannot compare (no judge LLM on its side)", async () => {
    const hank = await tokenOf("hank");
    const setId = await questionSet(hank);
    await arenaWorker.stop();
    // A `ragjudge worker` started without the LLM configuration the server has.
    arenaWorker = startArenaWorker({ jobs, clientsFor: () => ({}), recheckSeconds: 0.2 });
    try {
      const started = await call<Arena>(hank, "POST", "/arenas", {
        question_set_id: setId,
        judge: "pairwise",
        rounds: 200,
        contestants: [
          { name: "exact", answers: exact },
          { name: "wrong", answers: wrong },
        ],
      });
      const arena = await finished(hank, started.body.id);
      expect(arena.status).toBe("FAILED");
      expect(arena.status_reason).toContain("the pairwise judge needs the judge LLM");
      expect(arena.results).toBeNull();
    } finally {
      await arenaWorker.stop();
      arenaWorker = startArenas();
    }
  });

  it("lets one of two jobs waiting on an arena go on: the touch is a compare-and-set on its update time", async () => {
    const owner = await findOrCreateUser(use().db, "ivan");
    const created = await createArena(use().db, owner.id, {
      name: "waiting",
      question_set_id: "00000000-0000-4000-8000-000000000000",
      config: { compute: "job" },
    });
    // Both jobs read the row as created (to the microsecond on the server; a Date keeps ms).
    const seen = (await getArenaForWorker(use().db, created.id))!.gmt_updated;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const first = await touchPendingArena(use().db, created.id, seen);
    expect(first?.gmt_updated.getTime()).toBeGreaterThan(seen.getTime());
    expect(await touchPendingArena(use().db, created.id, seen)).toBeUndefined();
    // The winner's next look finds the row as it left it.
    const again = await touchPendingArena(use().db, created.id, first!.gmt_updated);
    expect(again).toBeDefined();
  });

  it("enqueues again an arena whose job was lost (a crash between storing and sending)", async () => {
    const gina = await tokenOf("gina");
    const setId = await questionSet(gina);
    await arenaWorker.stop();
    try {
      const started = await call<Arena>(gina, "POST", "/arenas", {
        question_set_id: setId,
        rounds: 200,
        contestants: [
          { name: "exact", answers: exact },
          { name: "wrong", answers: wrong },
        ],
      });
      expect(started.status).toBe(201);
      // And one stored before the queue compared arenas: RUNNING, waiting for a read to compute it.
      const legacy = await call<Arena>(gina, "POST", "/arenas", {
        question_set_id: setId,
        rounds: 200,
        contestants: [
          { name: "exact", answers: exact },
          { name: "half", answers: half },
        ],
      });
      await use().sql.executeSql(
        `update arenas set status = 'RUNNING', config = config - 'compute' where id = $1`,
        [legacy.body.id],
      );
      // The job never reached the queue: the arena waits, PENDING, with nobody to compare it.
      await use().sql.executeSql(`delete from ${JOBS_SCHEMA}.job where name = 'arena-compare'`, []);
      // With no job queued and no worker running, nothing can move it: it stays as it is now.
      const queued = await use().sql.executeSql(
        `select count(*)::int as n from ${JOBS_SCHEMA}.job where name = 'arena-compare'`,
        [],
      );
      expect(queued).toMatchObject({ rows: [{ n: 0 }] });
      expect((await call<Arena>(gina, "GET", `/arenas/${started.body.id}`)).body.status).toBe(
        "PENDING",
      );
      // A worker's sweep finds it untouched and sends its job again.
      arenaWorker = startArenaWorker({
        jobs,
        clientsFor: workerClients(use().db, undefined),
        recheckSeconds: 0.2,
        strandedAfterMs: 200,
        sweepMs: 200,
      });
      const arena = await finished(gina, started.body.id);
      expect(arena.status).toBe("COMPLETED");
      expect(arena.results!.contestants.map((c) => c.name)).toEqual(["exact", "wrong"]);
      expect((await finished(gina, legacy.body.id)).status).toBe("COMPLETED");
    } finally {
      await arenaWorker.stop();
      arenaWorker = startArenas();
    }
  });

  it("pairwise survives its worker stopping mid-comparison: reads never compute, the next worker finishes", async () => {
    const frank = await tokenOf("frank");
    const setId = await questionSet(frank);
    // Slow enough that the judge is still answering when the worker stops (the stop aborts its
    // calls); the next worker's judge answers at once.
    llm.latencyMs = 5000;
    llm.requests.length = 0;
    try {
      const started = await call<Arena>(frank, "POST", "/arenas", {
        question_set_id: setId,
        judge: "pairwise",
        rounds: 200,
        no_cache: true,
        contestants: [
          { name: "exact", answers: exact },
          { name: "wrong", answers: wrong },
        ],
      });
      expect(started.status).toBe(201);
      // The worker starts comparing (the row says RUNNING, the judge is being asked)...
      await expect
        .poll(() => llm.requests.filter(isChat).length, {
          timeout: 60_000,
          message: "the judge asked",
        })
        .toBeGreaterThanOrEqual(2);
      expect((await call<Arena>(frank, "GET", `/arenas/${started.body.id}`)).body.status).toBe(
        "RUNNING",
      );
      // No report before the results exist.
      expect((await call(frank, "GET", `/arenas/${started.body.id}/report.html`)).status).toBe(409);
      // ...and stops (a shutdown): its job fails and waits in the queue; the row stays RUNNING.
      await arenaWorker.stop();
      llm.latencyMs = 0;
      const asked = llm.requests.length;
      for (let i = 0; i < 3; i++) {
        const read = await call<Arena>(frank, "GET", `/arenas/${started.body.id}`);
        expect(read.body.status).toBe("RUNNING");
        expect(read.body.results).toBeNull();
      }
      expect(llm.requests.length).toBe(asked); // reading asked the judge nothing
      // A new worker (the restarted server) picks the job up again and stores the results.
      arenaWorker = startArenas();
      const arena = await finished(frank, started.body.id);
      expect(arena.status).toBe("COMPLETED");
      // Nor did a read set a comparison going in the background: every call the judge got since
      // the reads is one the stored comparison accounts for (a second would have asked as often).
      const { judge_cost } = arena.results as { judge_cost?: { by_model: { calls: number }[] } };
      expect(judge_cost?.by_model.map((m) => m.calls)).toEqual([llm.requests.length - asked]);
      expect(arena.results!.flip_rate).toEqual({
        "first-position-judge": { judged: 5, flipped: 5, rate: 1 },
      });
      expect(arena.results!.judge_errors).toHaveLength(1);
      const again = await call<Arena>(frank, "GET", `/arenas/${started.body.id}`);
      expect(again.body).toEqual(arena);
    } finally {
      llm.latencyMs = 0;
    }
  });
});

describe("ragjudge arena", () => {
  const dir = tempDir("arena");
  const env = { RAGJUDGE_HOME: join(dir, "home") };
  const write = (name: string, rows: unknown[]) => {
    const path = join(dir, name);
    writeFileSync(path, rows.map((row) => JSON.stringify(row)).join("\n") + "\n");
    return path;
  };
  const questions = write(
    "questions.jsonl",
    QUESTIONS.map(([question, ground_truth]) => ({ question, ground_truth })),
  );

  it("names the bad line of an answers file by contestant and stores nothing", async () => {
    const bad = write("bad.jsonl", [exact[0], { question: "When did Line 1 open?" }]);
    const run = await runCli(
      [
        "arena",
        "--questions",
        questions,
        "--answers",
        `good=${write("good.jsonl", exact)}`,
        "--answers",
        `bad=${bad}`,
      ],
      { env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('contestant "bad"');
    expect(run.stderr).toContain("line 2: answer: missing");
  }, 60_000);

  it("prints the same JSON under a seed, and writes one self-contained HTML file", async () => {
    // What is checked here is the arena's output, not the embedded store (the test above runs on
    // it): a server database lets the three runs go at once, each without PGlite's start.
    const server = { DATABASE_URL: await createDatabase(inject("postgresUrl")) };
    const args = [
      "arena",
      "--questions",
      questions,
      "--answers",
      `exact=${write("exact.jsonl", exact)}`,
      "--answers",
      `half=${write("half.jsonl", half)}`,
      "--answers",
      `wrong=${write("wrong.jsonl", wrong)}`,
      "--rounds",
      "300",
      "--seed",
      "7",
    ];
    const out = join(dir, "arena.html");
    const [first, again, html] = await Promise.all([
      runCli([...args, "--format", "json"], { env: server }),
      runCli([...args, "--format", "json"], { env: server }),
      runCli([...args, "--format", "html", "--out", out], { env: server }),
    ]);
    expect(first.code).toBe(0);
    const strip = (text: string) => {
      const {
        id: _id,
        name: _name,
        contestants,
        ...rest
      } = JSON.parse(text) as Record<string, unknown> & {
        contestants: { evaluation_id?: string }[];
      };
      return { ...rest, contestants: contestants.map(({ evaluation_id: _e, ...c }) => c) };
    };
    // Two arenas of their own (each run stores its contestants' runs), the same numbers.
    const idOf = (text: string) => (JSON.parse(text) as { id: string }).id;
    expect(idOf(again.stdout)).not.toBe(idOf(first.stdout));
    expect(strip(again.stdout)).toEqual(strip(first.stdout));
    const parsed = strip(first.stdout) as { contestants: { name: string; ci: number[] }[] };
    expect(parsed.contestants.map((c) => c.name)).toEqual(["exact", "half", "wrong"]);

    expect(html.code).toBe(0);
    const page = readFileSync(out, "utf8");
    expect(page.startsWith("<!doctype html>")).toBe(true);
    expect(page).toContain('aria-label="Ratings with 95% intervals"');
    expect(page).toContain('aria-label="Win matrix heat map"');
    expect(page).toContain('aria-label="Rubric dimensions radar"');
    // The dimensions by name, never by the internal document they come from.
    expect(page).toContain("Rubric dimensions (accuracy, completeness, clarity; 1-10, means)");
    expect(page).not.toMatch(/seed 0\d\d/i);
    // Self-contained: no script, no external stylesheet, image or font.
    expect(page).not.toMatch(/<script|<link|src=|url\(|@import/i);
  }, 180_000);
});
