// Outcomes that must not hide a failure (issue 12 §4.11, §4.12; issue 15 §1.3): a built-in bot
// whose generator fails is a BOT_ERROR unless a fallback was asked for, a judge that could not
// judge stores no numbers, an LLM error is retried by the client alone, and a reference judge
// without a ground truth is a skip, not an error.

import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { configuredClients, loadConfig, type RagjudgeConfig } from "../src/config/index.js";
import { buildReport, renderSummaryTable } from "../src/evals/reports/index.js";
import {
  type EvaluationRequest,
  startEvaluation,
  startEvaluationWorker,
} from "../src/evals/runs/index.js";
import { type Jobs, startJobs } from "../src/jobs/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import {
  createQuestionSet,
  type EvaluationRow,
  findOrCreateUser,
  getEvaluation,
  listEvaluationResults,
  type Store,
} from "../src/store/index.js";
import { promptText, type ScriptedLlm, startScriptedLlm } from "./support/scripted-llm.js";
import { openTestStore } from "./support/stores.js";
import { startTestBot, type TestBot } from "./support/test-bot.js";

const corpusDir = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

const QUESTIONS = [
  ["When did the Lanting Metro open Line 1?", "Line 1 opened in 2009."],
  ["How many lines does the Lanting Metro have?", "The metro has four lines."],
  ["What festival is held in spring?", ""],
] as const;

const RUBRIC_REPLY = {
  analysis: "Restates the record.",
  accuracy: 8,
  completeness: 7,
  clarity: 9,
  reason: "Supported.",
  suggestion: "None.",
};

let llm: ScriptedLlm;
let store: Store;
let jobs: Jobs;
let bot: TestBot;
let workspaceId: string;
let collectionId: string;

/** The generator is gen-model, the judge judge-model, both on the scripted server; no retry waits. */
async function configWith(rag: Record<string, unknown> = {}): Promise<RagjudgeConfig> {
  const loaded = await loadConfig({
    cwd: "/nonexistent",
    env: {
      OPENAI_BASE_URL: llm.baseUrl,
      OPENAI_API_KEY: "test-key",
      RAGJUDGE_GENERATOR_MODEL: "gen-model",
      RAGJUDGE_JUDGE_MODEL: "judge-model",
    },
  });
  const llmConfig = { ...loaded.llm, backoff_ms: 0, max_backoff_ms: 0 };
  return {
    ...loaded,
    llm: llmConfig,
    rag: { ...loaded.rag, loops: { ...loaded.rag.loops, ...rag } },
  };
}

const requestsFor = (model: string) => llm.requests.filter((r) => r.body.model === model).length;

async function run(
  config: RagjudgeConfig,
  request: Omit<
    EvaluationRequest,
    "question_set_id" | "no_cache" | "retry" | "bot" | "retrieval_k"
  > &
    Partial<Pick<EvaluationRequest, "bot">>,
  roles: readonly ("generator" | "judge")[],
): Promise<EvaluationRow> {
  const set = await createQuestionSet(
    store.db,
    workspaceId,
    { user_id: workspaceId, name: `set ${Math.random()}`, collection_id: collectionId },
    QUESTIONS.map(([question_text, ground_truth]) => ({
      question_type: "FACTUAL",
      question_text,
      ground_truth,
      question_key: question_text,
    })),
  );
  const worker = startEvaluationWorker({
    jobs,
    clientsFor: () => {
      const all = configuredClients(config.llm);
      return Object.fromEntries(roles.map((role) => [role, all[role]]));
    },
    watchMs: 50,
  });
  try {
    const started = await startEvaluation(
      { db: store.db, jobs },
      { workspaceId: workspaceId, userId: workspaceId },
      {
        question_set_id: set.id,
        collection_id: collectionId,
        no_cache: true,
        retry: { attempts: 3, base_ms: 0, max_ms: 0 },
        ...request,
      },
      config,
      { via: "cli" },
    );
    return await vi.waitFor(
      async () => {
        const row = await getEvaluation(store.db, workspaceId, started.id);
        expect(["COMPLETED", "FAILED", "CANCELLED"]).toContain(row?.status);
        return row!;
      },
      { timeout: 60_000, interval: 50 },
    );
  } finally {
    await worker.stop();
  }
}

beforeAll(async () => {
  llm = await startScriptedLlm();
  bot = await startTestBot({ delayMs: 0 });
  store = await openTestStore("pglite");
  jobs = await startJobs(store, { expireInSeconds: 5, heartbeatSeconds: 1 });
  workspaceId = (await findOrCreateUser(store.db, "honest")).id;
  const builtin = createBuiltinBot({ db: store.db, workspaceId });
  await builtin.ingestPaths([corpusDir], "lanting");
  collectionId = await builtin.resolveCollection("lanting");
}, 60_000);
afterAll(async () => {
  await jobs.stop();
  await store.close();
  await bot.close();
  await llm.close();
});
beforeEach(() => {
  llm.reset();
});

describe("a built-in bot whose generator answers 401", () => {
  beforeEach(() => {
    llm.on({
      when: (r) => r.body.model === "gen-model",
      reply: { status: 401, message: "Incorrect API key provided" },
    });
  });

  it("makes every item a BOT_ERROR naming the model and the cause, asking it once each", async () => {
    const row = await run(await configWith(), { judges: ["offline"] }, ["generator"]);
    expect(row.status).toBe("COMPLETED");
    const rows = await listEvaluationResults(store.db, workspaceId, row.id);
    expect(rows.map((r) => r.status)).toEqual(["BOT_ERROR", "BOT_ERROR", "BOT_ERROR"]);
    for (const r of rows) {
      expect(r.error).toMatch(/^bot model: .*the generator model gen-model failed: HTTP 401/);
      expect(r.error).toMatch(/Incorrect API key provided/);
      expect(r.error_kind).toBe("model");
    }
    // The client does not retry a 401, and the item does not retry what the client gave up on.
    expect(requestsFor("gen-model")).toBe(QUESTIONS.length);
    expect(row.scored_questions).toBe(0);
  });

  it("falls back to extractive answers only when asked, and counts them in the summary", async () => {
    const config = await configWith({
      answer: { ...(await configWith()).rag.loops.answer, llm_fallback: true },
    });
    const row = await run(config, { judges: ["offline"] }, ["generator"]);
    const rows = await listEvaluationResults(store.db, workspaceId, row.id);
    expect(rows.map((r) => r.status)).toEqual(["SCORED", "SCORED", "SCORED"]);
    for (const r of rows) {
      const fallbacks = (r.usage as { fallbacks?: string[] }).fallbacks ?? [];
      expect(fallbacks.length).toBeGreaterThan(0);
      expect(fallbacks[0]).toMatch(/^generator gen-model: LlmHttpError: HTTP 401/);
    }
    const report = buildReport(row, rows);
    expect(report.summary.fallbacks).toBe(QUESTIONS.length);
    expect(renderSummaryTable(report)).toMatch(/fallbacks\s+3 answered with a failing model/);
  });
});

describe("judges that cannot judge", () => {
  it("store no score, no raw score and no metrics on JUDGE_ERROR, with the error beside them", async () => {
    llm.on({ when: (r) => r.body.model === "judge-model", reply: { content: "no JSON here" } });
    const row = await run(
      await configWith(),
      { bot: { kind: "http", url: bot.url, timeout_ms: 5_000, retries: 0 }, judges: ["rubric"] },
      ["judge"],
    );
    const rows = await listEvaluationResults(store.db, workspaceId, row.id);
    expect(rows.map((r) => r.status)).toEqual(["JUDGE_ERROR", "JUDGE_ERROR", "JUDGE_ERROR"]);
    for (const r of rows) {
      const rubric = (r.judges as Record<string, Record<string, unknown>>).rubric;
      expect(rubric).toMatchObject({
        outcome: "judge_error",
        score: null,
        raw_score: null,
        passed: null,
        verdict: null,
        error: { cause: "reply", raw: ["no JSON here", "no JSON here"] },
      });
      expect(r.score).toBeNull();
      expect(r.error).toMatch(/^rubric: the reply contains no JSON object/);
    }
    const report = buildReport(row, rows);
    for (const result of report.results) {
      expect(result.judges.rubric).toMatchObject({
        outcome: "judge_error",
        score: null,
        raw_score: null,
        passed: null,
        metrics: {},
        error: "the reply contains no JSON object",
      });
    }
    expect(report.summary.judges.rubric).toBeUndefined();
    // An unusable reply is sampled again under the run's retry policy: 3 attempts of 2 calls.
    expect(requestsFor("judge-model")).toBe(QUESTIONS.length * 3 * 2);
  });

  it("are not retried by the item after an LLM error: the client's retries are the only ones", async () => {
    llm.on({
      when: (r) => r.body.model === "judge-model",
      reply: (r) =>
        promptText(r).includes("How many lines")
          ? { status: 400, message: "unsupported parameter" }
          : { status: 503, message: "overloaded" },
    });
    const config = await configWith();
    const row = await run(
      config,
      { bot: { kind: "http", url: bot.url, timeout_ms: 5_000, retries: 0 }, judges: ["rubric"] },
      ["judge"],
    );
    const rows = await listEvaluationResults(store.db, workspaceId, row.id);
    expect(rows.map((r) => r.status)).toEqual(["JUDGE_ERROR", "JUDGE_ERROR", "JUDGE_ERROR"]);
    const causes = rows.map((r) => (r.judges as { rubric: { error: unknown } }).rubric.error);
    expect(causes).toEqual([
      expect.objectContaining({ cause: "LlmHttpError", retryable: true }),
      // A 400 is final; the client steps the response format down twice first (3 requests).
      expect.objectContaining({ cause: "LlmHttpError", retryable: false }),
      expect.objectContaining({ cause: "LlmHttpError", retryable: true }),
    ]);
    // 503: 1 + max_retries requests, once per item (the item used to multiply it by 3). 400: one
    // request per response format the client steps down through (json_object, then none).
    const judgeRequests = llm.requests.filter((r) => r.body.model === "judge-model");
    const on400 = judgeRequests.filter((r) => promptText(r).includes("How many lines"));
    expect(judgeRequests.length - on400.length).toBe(2 * (1 + config.llm.max_retries));
    expect(on400.map((r) => r.body.response_format?.type ?? "none")).toEqual([
      "json_object",
      "none",
    ]);
    // The summary counts the failed calls too: logical calls and HTTP requests apart.
    expect(buildReport(row, rows).summary.usage).toMatchObject({
      calls: 3,
      attempts: judgeRequests.length,
    });
  });

  it("skips the reference judge on a question without a ground truth: SCORED, no error", async () => {
    llm.on({
      when: (r) => r.body.model === "judge-model",
      reply: (r) =>
        promptText(r).includes("ground truth") || promptText(r).includes("Ground truth")
          ? { json: { score: 4, reasoning: "Matches." } }
          : { json: RUBRIC_REPLY },
    });
    const row = await run(
      await configWith(),
      { bot: { kind: "http", url: bot.url, timeout_ms: 5_000, retries: 0 }, judges: ["reference"] },
      ["judge"],
    );
    const rows = await listEvaluationResults(store.db, workspaceId, row.id);
    expect(rows.map((r) => r.status)).toEqual(["SCORED", "SCORED", "SCORED"]);
    const last = rows[2];
    expect(last?.judges).toEqual({
      reference: { outcome: "skipped", reason: "the question has no ground truth" },
    });
    expect(last?.error).toBeNull();
    expect(last?.score).toBeNull();
    expect(rows.slice(0, 2).map((r) => r.score)).toEqual([0.75, 0.75]);
  });
});
