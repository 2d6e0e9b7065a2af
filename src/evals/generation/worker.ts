import { type Jobs, QUEUES, startWorkLoop } from "../../jobs/index.js";
import {
  costTotalOf,
  DEFAULT_PRICES,
  errorText,
  groupFailures,
  type LlmClients,
  type PriceTable,
  pricedUsage,
  usageByModel,
  usageOfCalls,
} from "../../llm/index.js";
import { type CodedMessage, codedMessage } from "../../text/index.js";
import {
  claimQuestionGeneration,
  type Db,
  finishQuestionGeneration,
  listChunks,
  listDocuments,
  releaseQuestionGeneration,
  setQuestionGenerationProgress,
} from "../../store/index.js";
import {
  type DocumentChunks,
  type GenerateQuestionsResult,
  generateQuestions,
} from "../questions/index.js";
import {
  type GenerationConfig,
  GenerateQuestionsRequestSchema,
  type GenerationJob,
} from "./request.js";

export interface QuestionGenerationWorkerOptions {
  jobs: Jobs;
  /** The configured roles' clients for a user; the generator role writes the questions. */
  clientsFor(workspaceId: string, options: { noCache: boolean }): Partial<LlmClients>;
  /** Generations this process runs at once (default 2). */
  concurrency?: number;
  /** USD per million tokens the generator's calls are priced at (default: llm/prices.ts's). */
  prices?: PriceTable;
  onError?(error: unknown): void;
}

export interface QuestionGenerationWorker {
  stop(): Promise<void>;
}

/** The generator's calls, tokens and latency, with its tokens by model priced (docs/cost.md). */
function generationUsage(result: GenerateQuestionsResult, prices: PriceTable) {
  const models = usageByModel(result.calls).map((usage) => pricedUsage(usage, prices));
  const cost = costTotalOf(models);
  return {
    ...usageOfCalls(result.calls),
    models,
    cost_usd: cost.cost_usd,
    unpriced_models: cost.unpriced_models,
  };
}

/** Why a generation that produced no question failed, grouped by kind with a count. */
export function noUsableQuestion(result: GenerateQuestionsResult): CodedMessage {
  const groups = groupFailures(result.unusable);
  if (groups.length > 0) return codedMessage("generation.no_usable_question", { failures: groups });
  return codedMessage("generation.no_usable_question_warned", {
    n: result.warnings.length,
    first: result.warnings[0]?.message ?? "-",
  });
}

/** A collection's documents with their chunks, in the store's order. */
async function documentsOf(
  db: Db,
  workspaceId: string,
  collectionId: string,
): Promise<DocumentChunks[]> {
  const documents = await listDocuments(db, workspaceId, collectionId);
  const result: DocumentChunks[] = [];
  for (const document of documents) {
    const chunks = await listChunks(db, workspaceId, document.id);
    result.push({
      document_id: document.id,
      chunks: chunks.map((chunk) => ({ id: chunk.id, content: chunk.content })),
    });
  }
  return result;
}

/**
 * Seed 003's QuestionGenerationTask on pg-boss: generates a generation row's questions from its
 * collection (with the generator LLM when one is configured, else the heuristic generator), keeps
 * its progress current, and stores the preview with the LLM usage (COMPLETED) or the error
 * (FAILED). The questions are not saved to any set: the user previews them and saves with
 * POST /question-sets.
 */
export function startQuestionGenerationWorker(
  options: QuestionGenerationWorkerOptions,
): QuestionGenerationWorker {
  const { jobs } = options;
  const db = jobs.store.db;
  const stopping = new AbortController();

  async function run(generationId: string): Promise<void> {
    const row = await claimQuestionGeneration(db, generationId);
    if (!row) return;
    let config: GenerationConfig;
    try {
      config = GenerateQuestionsRequestSchema.parse(row.config);
    } catch (error) {
      await finishQuestionGeneration(db, row.id, {
        status: "FAILED",
        error: codedMessage("generation.invalid_settings", { error: (error as Error).message }),
      });
      return;
    }
    let progress = Promise.resolve();
    let lastPercent = 0;
    try {
      const client = options.clientsFor(row.workspace_id, { noCache: false }).generator;
      const result = await generateQuestions({
        documents: await documentsOf(db, row.workspace_id, row.collection_id),
        n: config.n,
        ...(config.types ? { types: config.types } : {}),
        ...(config.prompt !== undefined ? { prompt: config.prompt } : {}),
        ...(config.language ? { language: config.language } : {}),
        ...(client ? { client } : {}),
        signal: stopping.signal,
        onProgress: (done, total) => {
          const percent = Math.min(99, Math.floor((100 * done) / total));
          if (percent <= lastPercent) return;
          lastPercent = percent;
          progress = progress
            .then(() => setQuestionGenerationProgress(db, row.id, percent))
            .catch(options.onError ?? (() => {}));
        },
      });
      await progress;
      if (result.questions.length === 0) {
        // Nothing to preview or add: the honest outcome is a failure that says why, once.
        await finishQuestionGeneration(db, row.id, {
          status: "FAILED",
          error: noUsableQuestion(result),
        });
        return;
      }
      await finishQuestionGeneration(db, row.id, {
        status: "COMPLETED",
        questions: result.questions,
        heuristic: result.heuristic,
        warnings: result.warnings,
        // Null, not zeros, for the heuristic generator: no LLM is not the same as a free one.
        usage: result.heuristic ? null : generationUsage(result, options.prices ?? DEFAULT_PRICES),
      });
    } catch (error) {
      await progress;
      if (stopping.signal.aborted) {
        // This worker is stopping: the job fails and pg-boss hands it to another worker.
        await releaseQuestionGeneration(db, row.id);
        throw error;
      }
      await finishQuestionGeneration(db, row.id, {
        status: "FAILED",
        error: codedMessage("generation.error", { error: errorText(error) }),
      });
    }
  }

  const loop = startWorkLoop<GenerationJob>(jobs, {
    queue: QUEUES.questionGeneration,
    concurrency: options.concurrency ?? 2,
    handle: (job) => run(job.data.generation_id),
    ...(options.onError ? { onError: options.onError } : {}),
  });

  return {
    async stop() {
      stopping.abort();
      await loop.stop();
    },
  };
}
