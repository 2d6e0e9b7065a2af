// The adaptive limiter against a provider's limit (issue 15 §4): 2,000 questions, the built-in bot
// (generate + review) and the reference judge, 3 LLM calls a question, against a provider that
// allows 20 calls in flight and answers 429 with Retry-After beyond, at lognormal latency around
// 800 ms. No max_concurrency is set: the limiter must find the provider's limit itself.
//
// Bound = the provider's answered latencies summed / its limit: the least wall time in which it
// could serve those calls. Goal: the run within 10% of it (ratio <= 1.10), with no failed items.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { configuredClients } from "../src/config/index.js";
import { startEvaluation, startEvaluationWorker } from "../src/evals/runs/index.js";
import { startJobs } from "../src/jobs/index.js";
import { defaultProviderLimiters } from "../src/llm/index.js";
import { createBuiltinBot } from "../src/rag/index.js";
import {
  createQuestionSet,
  type EvaluationRow,
  findOrCreateUser,
  openStore,
  queryRows,
} from "../src/store/index.js";
import { benchRunConfig, UNIVERSAL_REPLY } from "./evaluations.js";
import { startRateLimitedProvider } from "./rate-limited-provider.js";

export interface LimiterBench {
  questions: number;
  provider_limit: number;
  median_latency_ms: number;
  item_concurrency: number;
  llm_calls_answered: number;
  answers_429: number;
  peak_in_flight_at_provider: number;
  settled_limit: number;
  seconds: number;
  bound_seconds: number;
  ratio_to_bound: number;
  failed_items: number;
  goal: string;
  met: boolean;
}

const CORPUS = fileURLToPath(new URL("../examples/corpus/", import.meta.url));

export async function benchLimiter(
  options: { questions?: number; providerLimit?: number; medianMs?: number } = {},
): Promise<LimiterBench> {
  const questions = options.questions ?? 2_000;
  const providerLimit = options.providerLimit ?? 20;
  const medianMs = options.medianMs ?? 800;
  // Enough items that the provider's limit, not the worker, is what binds.
  const itemConcurrency = providerLimit * 2;
  const provider = await startRateLimitedProvider({
    maxConcurrent: providerLimit,
    medianMs,
    sigma: 0.35,
    retryAfterSeconds: 1,
    reply: UNIVERSAL_REPLY,
  });
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-limiter-"));
  const store = await openStore({ home });
  const jobs = await startJobs(store);
  try {
    const config = await benchRunConfig(home, provider.baseUrl, { max_retries: 10 });
    const clients = configuredClients(config.llm);
    const worker = startEvaluationWorker({
      jobs,
      concurrency: itemConcurrency,
      clientsFor: () => clients,
    });
    const user = await findOrCreateUser(store.db, "bench");
    const bot = createBuiltinBot({ db: store.db, workspaceId: user.id });
    await bot.ingestPaths([CORPUS], "lanting");
    const collectionId = await bot.resolveCollection("lanting");
    const set = await createQuestionSet(
      store.db,
      user.id,
      { user_id: user.id, name: "limiter", collection_id: collectionId },
      Array.from({ length: questions }, (_, i) => ({
        question_type: "FACTUAL",
        question_text: `When did the Lanting Metro open Line 1? (#${i})`,
        ground_truth: "Line 1 opened in 2009.",
        question_key: `q-${i}`,
      })),
    );
    const started = await startEvaluation(
      { db: store.db, jobs },
      { workspaceId: user.id, userId: user.id },
      {
        question_set_id: set.id,
        collection_id: collectionId,
        judges: ["reference"],
        no_cache: true,
      },
      config,
      { via: "cli" },
    );
    let row: EvaluationRow | undefined;
    for (;;) {
      [row] = await queryRows<EvaluationRow>(
        store.db,
        sql`select * from evaluations where id = ${started.id}`,
      );
      if (row && !["PENDING", "RUNNING"].includes(row.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await worker.stop();
    const finished = row.finished_at ? new Date(row.finished_at).getTime() : Date.now();
    const seconds = (finished - new Date(row.gmt_created).getTime()) / 1000;
    const stats = provider.stats();
    const bound = stats.latencySumMs / 1000 / providerLimit;
    const failed = row.total_questions - row.scored_questions;
    const settled = defaultProviderLimiters.snapshot().find((p) => p.provider === provider.baseUrl);
    const ratio = seconds / bound;
    return {
      questions,
      provider_limit: providerLimit,
      median_latency_ms: medianMs,
      item_concurrency: itemConcurrency,
      llm_calls_answered: stats.answered,
      answers_429: stats.rateLimited,
      peak_in_flight_at_provider: stats.peakInFlight,
      settled_limit: settled?.limit ?? 0,
      seconds: Math.round(seconds * 100) / 100,
      bound_seconds: Math.round(bound * 100) / 100,
      ratio_to_bound: Math.round(ratio * 1000) / 1000,
      failed_items: failed,
      goal: "<= 1.10 of bound, 0 failed",
      met: ratio <= 1.1 && failed === 0,
    };
  } finally {
    await jobs.stop();
    await store.close();
    await provider.close();
    rmSync(home, { recursive: true, force: true });
  }
}
