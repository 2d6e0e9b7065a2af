// The package's core entry (`import { guard } from "ragjudge"`): the evidence gate and its
// guardrail, the judges (LLM and offline), the built-in bot's loops, the LLM client, and
// evaluation runs over a store. It imports no framework; integrations get subpath exports.
// docs/library.md shows each part in use.

export * from "./gate/index.js";
export * from "./judges/index.js";
export {
  type ChatMessage,
  createLlmClient,
  createLlmClients,
  type LlmClient,
  type LlmClients,
  type LlmConfig,
  type LlmConfigInput,
  LlmConfigSchema,
  parseLlmConfig,
} from "./llm/index.js";
export {
  ask,
  type AskOptions,
  type BuiltinBot,
  createBuiltinBot,
  ingestPaths,
} from "./rag/index.js";
export { openStore, type Store } from "./store/index.js";
export {
  cancelEvaluation,
  type EvaluationRequest,
  EvaluationRequestSchema,
  type EvaluationSummary,
  pauseEvaluation,
  resumeEvaluation,
  retryEvaluation,
  startEvaluation,
  summarizeResults,
} from "./evals/runs/index.js";
