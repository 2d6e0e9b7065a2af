// Public face of evals/runs: evaluation runs (seed 003) — start, control, workers, summaries.
export {
  type BotConfig,
  BotConfigSchema,
  botIdOf,
  type EvaluationRequest,
  EvaluationRequestSchema,
  type EvaluationSnapshot,
  EvaluationSnapshotSchema,
  evaluationSnapshot,
  judgeModelIdOf,
  publicSnapshot,
  publicUrl,
  type SnapshotBot,
  SnapshotBotSchema,
  type SubmittedVia,
} from "./config.js";
export {
  type ControlDeps,
  type StartOptions,
  cancelEvaluation,
  EvaluationNotFoundError,
  EvaluationRequestError,
  EvaluationStateError,
  pauseEvaluation,
  resumeEvaluation,
  retryEvaluation,
  latestQuestionsOf,
  type RunQuestion,
  startEvaluation,
} from "./control.js";
export {
  DEFAULT_RETRIEVAL_K,
  type ItemRetrieval,
  itemRetrieval,
  type RetrievalSummary,
  summarizeRetrieval,
} from "./retrieval.js";
export { gateInputOf, ItemAbortedError, type ItemQuestion, runItem } from "./run-item.js";
export {
  type ItemCost,
  itemCostOf,
  type ItemUsageLine,
  ItemUsageLineSchema,
  storedUsageLines,
} from "./item-cost.js";
export {
  type EvaluationSummary,
  type JudgeSummaryBlock,
  type Progress,
  progressOf,
  type RunCost,
  runCostOf,
  type SummaryRow,
  summarizeResults,
} from "./summary.js";
export {
  type EvaluationWorker,
  type EvaluationWorkerOptions,
  type ItemJob,
  type LaunchJob,
  startEvaluationWorker,
} from "./worker.js";
