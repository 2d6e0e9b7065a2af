// What a run costs (issue 26 §5): every LLM call's tokens are stored by part, role and model,
// priced from the run's price table, summed per judge, per bot and per question; and a run with
// a cost limit pauses before it passes it, saying so, on either store.

import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { configuredClients, loadConfig, type RagjudgeConfig } from "../src/config/index.js";
import {
  type EvaluationWorker,
  startEvaluation,
  startEvaluationWorker,
  storedUsageLines,
  summarizeResults,
} from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { costOfUsage, DEFAULT_PRICES } from "../src/llm/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import { createApp } from "../src/server/index.js";
import {
  createApiToken,
  createQuestionSet,
  type EvaluationRow,
  findOrCreateUser,
  getEvaluation,
  listAudit,
  listEvaluationResults,
  llmResponseCache,
} from "../src/store/index.js";
import { isChat, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { describeEachStore } from "./support/stores.js";
import { startTestBot, type TestBot } from "./support/test-bot.js";

const corpusDir = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const QUESTIONS = [
  ["When did the Lanting Metro open Line 1?", "Line 1 opened in 2009."],
  ["How many lines does the Lanting Metro have?", "The metro has four lines."],
  ["Why was the flood of 2016 so damaging?", "Heavy rain and a high river."],
  ["What festival is held in spring?", "The lantern festival."],
  ["Where does Line 2 of the Lanting Metro run?", "Line 2 runs east to west."],
  ["Who built the Lanting Metro?", "The city built it."],
] as const;

const GENERATOR = "gpt-4.1-mini";
const JUDGE = "gpt-4o-mini";
const EMBEDDER = "text-embedding-3-small";
/** Every chat answer reports these tokens, 400 of the prompt from the provider's cache. */
const USAGE = { prompt_tokens: 1000, completion_tokens: 100, cached_tokens: 400 };
/** What one call of each model costs at the default prices: 440 and 180 micro-dollars. */
const callCost = (model: string) => costOfUsage({ model, ...USAGE }, DEFAULT_PRICES) as number;

/** One reply serves both the bot's review and the reference judge: each reads its own fields. */
const JUDGE_REPLY = {
  score: 4,
  reasoning: "Matches the reference.",
  reasonableness: { passed: true, problems: [] },
  evidence: { passed: true, problems: [] },
};

describeEachStore("what a run costs", (use, kind) => {
  let llm: ScriptedLlm;
  let bot: TestBot;
  let jobs: Jobs;
  let worker: EvaluationWorker | undefined;
  let config: RagjudgeConfig;
  let workspaceId: string;
  let collectionId: string;
  let questionSetId: string;
  /** While set, the judge model answers 500: the built-in bot's review fails after its answer. */
  let judgeDown = false;

  beforeAll(async () => {
    llm = await startScriptedLlm({
      usage: USAGE,
      rules: [
        {
          when: (r) => judgeDown && isChat(r) && r.body.model === JUDGE,
          reply: { status: 500, message: "the judge is down" },
        },
        {
          when: (r) => isChat(r) && r.body.model === GENERATOR,
          reply: { content: "Line 1 of the Lanting Metro opened in 2009 [1]." },
        },
        { when: isChat, reply: { auto: JUDGE_REPLY } },
      ],
    });
    const loaded = await loadConfig({
      cwd: "/nonexistent",
      env: {
        OPENAI_BASE_URL: llm.baseUrl,
        RAGJUDGE_GENERATOR_MODEL: GENERATOR,
        RAGJUDGE_JUDGE_MODEL: JUDGE,
        RAGJUDGE_EMBEDDER_MODEL: EMBEDDER,
      },
    });
    config = { ...loaded, llm: { ...loaded.llm, backoff_ms: 0, max_backoff_ms: 0 } };
    jobs = await startJobs(use(), { expireInSeconds: 5, heartbeatSeconds: 1 });
    // An HTTP bot that reports its own model's tokens, one named model and one it leaves unnamed.
    bot = await startTestBot({
      delayMs: 0,
      usage: [
        { model: "gpt-4o", prompt_tokens: 2000, completion_tokens: 200, cached_tokens: 1000 },
        { prompt_tokens: 50, completion_tokens: 5 },
      ],
    });
  });
  afterAll(async () => {
    await jobs.stop();
    await llm.close();
    await bot.close();
  });
  afterEach(async () => {
    judgeDown = false;
    await worker?.stop();
    worker = undefined;
  });

  beforeEach(async () => {
    llm.requests.length = 0;
    const db = use().db;
    workspaceId = (await findOrCreateUser(db, "alice")).id;
    const bot = createBuiltinBot({ db, workspaceId });
    await bot.ingestPaths([corpusDir], "lanting");
    collectionId = await bot.resolveCollection("lanting");
    const set = await createQuestionSet(
      db,
      workspaceId,
      { user_id: workspaceId, name: "lanting", collection_id: collectionId },
      QUESTIONS.map(([question_text, ground_truth]) => ({
        question_type: "FACTUAL",
        question_text,
        ground_truth,
        question_key: question_text,
      })),
    );
    questionSetId = set.id;
    const clients = configuredClients(config.llm);
    worker = startEvaluationWorker({
      jobs,
      // The bot answers with the generator and reviews with the judge; the run judges with it too.
      clientsFor: () => ({ generator: clients.generator, judge: clients.judge }),
      watchMs: 50,
    });
  });

  async function run(
    extra: { max_cost_usd?: number; bot?: { kind: "http"; url: string }; no_cache?: boolean } = {},
  ): Promise<EvaluationRow> {
    const started = await startEvaluation(
      { db: use().db, jobs },
      { workspaceId: workspaceId, userId: workspaceId },
      {
        question_set_id: questionSetId,
        collection_id: collectionId,
        judges: ["reference"],
        no_cache: true,
        ...extra,
      },
      config,
      { via: "cli" },
    );
    let row: EvaluationRow | undefined;
    await expect
      .poll(
        async () => {
          row = await getEvaluation(use().db, workspaceId, started.id);
          return row?.status;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toMatch(/COMPLETED|PAUSED|FAILED/);
    return row as EvaluationRow;
  }

  /** What the scripted server was actually asked, priced: every request, finished or not. */
  const billed = () =>
    llm.requests.filter(isChat).reduce((sum, r) => sum + callCost(String(r.body.model)), 0);

  /** The worker again, its bot with `clients` (the configured ones by name). */
  async function restartWorker(roles: readonly ("generator" | "judge" | "embedder")[]) {
    await worker?.stop();
    const clients = configuredClients(config.llm);
    const picked = Object.fromEntries(roles.map((role) => [role, clients[role]]));
    worker = startEvaluationWorker({ jobs, clientsFor: () => picked, watchMs: 50 });
  }

  it(`stores every item's tokens by part, role and model, and sums them [${kind}]`, async () => {
    const row = await run();
    expect(row.status).toBe("COMPLETED");
    const rows = await listEvaluationResults(use().db, workspaceId, row.id);
    expect(rows.every((r) => r.status === "SCORED")).toBe(true);

    const lines = rows.flatMap((r) => storedUsageLines(r.usage));
    const calls = (where: (l: (typeof lines)[number]) => boolean) =>
      lines.filter(where).reduce((sum, l) => sum + l.calls, 0);
    const requests = (model: string) =>
      llm.requests.filter((r) => isChat(r) && r.body.model === model).length;
    // Every request the server answered is in exactly one stored line.
    expect(calls((l) => l.model === GENERATOR)).toBe(requests(GENERATOR));
    expect(calls((l) => l.model === JUDGE)).toBe(requests(JUDGE));
    // The run's reference judge asked once per question; the bot's review is the bot's cost.
    expect(calls((l) => l.part === "judge" && l.judge === "reference")).toBe(QUESTIONS.length);
    expect(calls((l) => l.part === "bot" && l.role === "generator")).toBeGreaterThanOrEqual(
      QUESTIONS.length,
    );
    for (const line of lines) {
      expect(line.cached_tokens).toBe(USAGE.cached_tokens * line.calls);
      expect(line.cost_usd).toBeCloseTo(callCost(line.model) * line.calls, 12);
    }

    const cost = summarizeResults(rows).cost;
    expect(cost.total.unpriced_models).toEqual([]);
    expect(cost.total.cost_usd).toBeCloseTo(billed(), 12);
    expect(cost.judges.reference?.cost_usd).toBeCloseTo(QUESTIONS.length * callCost(JUDGE), 12);
    expect(cost.bot.cost_usd + (cost.judges.reference?.cost_usd ?? 0)).toBeCloseTo(
      cost.total.cost_usd,
      12,
    );
    expect(cost.per_question.mean_usd).toBeCloseTo(cost.total.cost_usd / QUESTIONS.length, 12);
  });

  it(`prices the tokens an HTTP bot reports as the bot's, and names a model it left unnamed [${kind}]`, async () => {
    const row = await run({ bot: { kind: "http", url: bot.url } });
    expect(row.status).toBe("COMPLETED");
    const cost = summarizeResults(await listEvaluationResults(use().db, workspaceId, row.id)).cost;
    // gpt-4o: 1,000 fresh prompt tokens at $2.50, 1,000 cached at $1.25, 200 out at $10 a million.
    const perAnswer = (1000 * 2.5 + 1000 * 1.25 + 200 * 10) / 1e6;
    expect(cost.bot.cost_usd).toBeCloseTo(QUESTIONS.length * perAnswer, 12);
    expect(cost.bot.unpriced_models).toEqual(["(bot's model, not named)"]);
    expect(cost.bot.prompt_tokens).toBe(QUESTIONS.length * 2050);
    expect(cost.judges.reference?.cost_usd).toBeCloseTo(QUESTIONS.length * callCost(JUDGE), 12);
  });

  it(`pauses a run with --max-cost before its cost passes the limit, saying so [${kind}]`, async () => {
    // About three items' worth: the first runs alone and prices the rest, then items start only
    // while spent + in flight + 1.5 x the dearest item stay within the limit.
    const limit = 0.0025;
    const row = await run({ max_cost_usd: limit });
    expect(row.status).toBe("PAUSED");
    expect(row.status_reason).toMatch(/^cost limit \$0\.0025 reached/);
    expect(row.completed_questions).toBeGreaterThan(0);
    expect(row.completed_questions).toBeLessThan(QUESTIONS.length);
    // Nothing is in flight once paused; what was asked of the server, in-flight calls included,
    // stays within the limit, and the stored cost is what was asked.
    await expect.poll(() => llm.inFlight, { timeout: 10_000 }).toBe(0);
    expect(billed()).toBeLessThanOrEqual(limit);
    const rows = await listEvaluationResults(use().db, workspaceId, row.id);
    expect(summarizeResults(rows).cost.total.cost_usd).toBeCloseTo(billed(), 12);
  });

  it(`raises a paused run's cost limit over the API and resumes it, with the change in its history [${kind}]`, async () => {
    const limit = 0.0025;
    const row = await run({ max_cost_usd: limit });
    expect(row.status).toBe("PAUSED");
    const { db } = use();
    const app = createApp({ db, jobs, config });
    const token = await createApiToken(db, workspaceId);
    const resume = (body?: unknown) =>
      app.request(`/api/v1/evaluations/${row.id}/resume`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const before = await (
      await app.request(`/api/v1/evaluations/${row.id}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json();
    expect(before).toMatchObject({ max_cost_usd: limit, cost_limit_reached: true });

    // A limit of nothing, or below zero, is refused by field; the run stays paused.
    for (const bad of [{ max_cost_usd: 0 }, { max_cost_usd: -1 }, { max_cost_usd: "10" }]) {
      const refused = await resume(bad);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(await refused.json())).toContain("max_cost_usd");
    }
    expect((await getEvaluation(db, workspaceId, row.id))?.status).toBe("PAUSED");

    // Ten times the limit: room for every question left.
    const raised = await resume({ max_cost_usd: limit * 10 });
    expect(raised.status).toBe(200);
    expect(await raised.json()).toMatchObject({
      status: "RUNNING",
      max_cost_usd: limit * 10,
      cost_limit_reached: false,
    });
    let done: EvaluationRow | undefined;
    await expect
      .poll(async () => (done = await getEvaluation(db, workspaceId, row.id))?.status, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe("COMPLETED");
    expect(done?.completed_questions).toBe(QUESTIONS.length);
    expect(billed()).toBeLessThanOrEqual(limit * 10);
    const rows = await listEvaluationResults(db, workspaceId, row.id);
    expect(summarizeResults(rows).cost.total.cost_usd).toBeCloseTo(billed(), 12);

    const history = await listAudit(db, workspaceId, {
      subjectType: "evaluation",
      subjectId: row.id,
      limit: 10,
    });
    expect(history.filter((e) => e.action === "evaluation.resume").map((e) => e.detail)).toEqual([
      { max_cost_usd: limit * 10 },
    ]);
  });

  it(`removes a paused run's cost limit over the API: the run completes without one [${kind}]`, async () => {
    const row = await run({ max_cost_usd: 0.0025 });
    expect(row.status).toBe("PAUSED");
    const { db } = use();
    const app = createApp({ db, jobs, config });
    const token = await createApiToken(db, workspaceId);
    const cleared = await app.request(`/api/v1/evaluations/${row.id}/resume`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ max_cost_usd: null }),
    });
    expect(cleared.status).toBe(200);
    expect(await cleared.json()).toMatchObject({ max_cost_usd: null, cost_limit_reached: false });
    await expect
      .poll(async () => (await getEvaluation(db, workspaceId, row.id))?.status, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe("COMPLETED");
    const history = await listAudit(db, workspaceId, { subjectId: row.id, limit: 10 });
    expect(history.find((e) => e.action === "evaluation.resume")?.detail).toEqual({
      max_cost_usd: null,
    });
  });

  it(`keeps what a failed bot spent before it failed: its answer's tokens stay on the item [${kind}]`, async () => {
    // The built-in bot answers with the generator, then its review (the judge model) fails: the
    // item is a bot error, and the generations it paid for are its cost.
    judgeDown = true;
    await restartWorker(["generator", "judge"]);
    const row = await run();
    expect(row.status).toBe("COMPLETED");
    const rows = await listEvaluationResults(use().db, workspaceId, row.id);
    expect(rows.every((r) => r.status === "BOT_ERROR")).toBe(true);
    const generations = llm.requests.filter((r) => isChat(r) && r.body.model === GENERATOR);
    expect(generations.length).toBeGreaterThanOrEqual(QUESTIONS.length);
    const lines = rows.flatMap((r) => storedUsageLines(r.usage));
    // Every generation is on some item's row; the failed reviews answered no tokens.
    expect(lines.filter((l) => l.model === GENERATOR).reduce((sum, l) => sum + l.calls, 0)).toBe(
      generations.length,
    );
    expect(lines.every((l) => l.part === "bot")).toBe(true);
    const cost = summarizeResults(rows).cost;
    expect(cost.bot.cost_usd).toBeCloseTo(generations.length * callCost(GENERATOR), 12);
    expect(cost.total.cost_usd).toBe(cost.bot.cost_usd);
  });

  it(`prices the built-in bot's embedding calls, at the embedder's input price [${kind}]`, async () => {
    const db = use().db;
    const clients = configuredClients(config.llm);
    expect(clients.embedder?.model).toBe(EMBEDDER);
    // A collection with vectors, so the bot's retrieval embeds each question.
    const embedded = createBuiltinBot({ db, workspaceId, llm: { embedder: clients.embedder! } });
    await embedded.ingestPaths([corpusDir], "lanting-vectors");
    const vectors = await embedded.resolveCollection("lanting-vectors");
    const set = await createQuestionSet(
      db,
      workspaceId,
      { user_id: workspaceId, name: "lanting-vectors", collection_id: vectors },
      QUESTIONS.map(([question_text, ground_truth]) => ({
        question_type: "FACTUAL",
        question_text,
        ground_truth,
        question_key: question_text,
      })),
    );
    await restartWorker(["generator", "judge", "embedder"]);
    llm.requests.length = 0;
    const started = await startEvaluation(
      { db, jobs },
      { workspaceId, userId: workspaceId },
      {
        question_set_id: set.id,
        collection_id: vectors,
        judges: ["reference"],
        no_cache: true,
      },
      config,
      { via: "cli" },
    );
    await expect
      .poll(async () => (await getEvaluation(db, workspaceId, started.id))?.status, {
        timeout: 60_000,
        interval: 50,
      })
      .toBe("COMPLETED");
    const rows = await listEvaluationResults(db, workspaceId, started.id);
    const embeddings = llm.requests.filter((r) => r.path.endsWith("/embeddings"));
    expect(embeddings.length).toBeGreaterThanOrEqual(QUESTIONS.length);
    const lines = rows
      .flatMap((r) => storedUsageLines(r.usage))
      .filter((l) => l.role === "embedder");
    expect(lines.every((l) => l.part === "bot" && l.model === EMBEDDER)).toBe(true);
    expect(lines.reduce((sum, l) => sum + l.calls, 0)).toBe(embeddings.length);
    // The scripted server answers 3 prompt tokens per embedding call; $0.02 per million.
    const tokens = lines.reduce((sum, l) => sum + l.prompt_tokens, 0);
    expect(tokens).toBe(3 * embeddings.length);
    expect(lines.reduce((sum, l) => sum + (l.cost_usd ?? 0), 0)).toBeCloseTo(
      (tokens * 0.02) / 1e6,
      15,
    );
    const cost = summarizeResults(rows).cost;
    expect(cost.total.unpriced_models).toEqual([]);
    expect(cost.total.cost_usd).toBeCloseTo(billed() + (tokens * 0.02) / 1e6, 12);
  });

  it(`prices an answer from ragjudge's response cache at nothing, keeping its tokens apart [${kind}]`, async () => {
    await worker?.stop();
    const clients = configuredClients(config.llm, {
      cache: llmResponseCache(use().db, workspaceId),
    });
    worker = startEvaluationWorker({
      jobs,
      clientsFor: () => ({ generator: clients.generator, judge: clients.judge }),
      watchMs: 50,
    });
    const cold = await run({ no_cache: false });
    expect(cold.status).toBe("COMPLETED");
    const coldCost = summarizeResults(
      await listEvaluationResults(use().db, workspaceId, cold.id),
    ).cost;
    expect(coldCost.total.cost_usd).toBeGreaterThan(0);
    const asked = llm.requests.length;

    // The same questions again: every answer is in the cache, no request is made.
    const warm = await run({ no_cache: false });
    expect(warm.status).toBe("COMPLETED");
    expect(llm.requests.length).toBe(asked);
    const rows = await listEvaluationResults(use().db, workspaceId, warm.id);
    const lines = rows.flatMap((r) => storedUsageLines(r.usage));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line.cache_hits).toBe(line.calls);
      expect([line.prompt_tokens, line.cached_tokens, line.completion_tokens]).toEqual([0, 0, 0]);
      // What the answers took when first asked for, 1,000 + 100 tokens each.
      expect(line.cache_hit_tokens).toBe(line.calls * 1100);
      expect(line.cost_usd).toBe(0);
    }
    // The bot's and the judges' usage count tokens spent, as cost does: none, the hits' apart.
    for (const row of rows) {
      const { bot, judges } = row.usage as Record<"bot" | "judges", Record<string, number>>;
      for (const part of [bot, judges]) {
        expect(part).toMatchObject({ prompt_tokens: 0, completion_tokens: 0, cached_tokens: 0 });
        expect(part?.cache_hit_tokens).toBe((part?.calls ?? 0) * 1100);
      }
    }
    expect(summarizeResults(rows).usage).toMatchObject({ prompt_tokens: 0, completion_tokens: 0 });
    const coldUsage = summarizeResults(
      await listEvaluationResults(use().db, workspaceId, cold.id),
    ).usage;
    expect(coldUsage.prompt_tokens).toBeGreaterThan(0);
    const cost = summarizeResults(rows).cost;
    expect(cost.total).toMatchObject({ cost_usd: 0, prompt_tokens: 0, unpriced_models: [] });
    const hits = cost.by_model.reduce((sum, l) => sum + (l.cache_hits ?? 0), 0);
    const coldCalls = coldCost.by_model.reduce((sum, l) => sum + l.calls, 0);
    expect(hits).toBe(coldCalls);
  });
});
