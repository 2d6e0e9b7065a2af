// Public face of production/: the answers a RAG system gives its users, taken in by the API (and
// later traces), gated as they arrive and stored by day (issue 24).
export {
  type AnswerInput,
  type AnswerInputIn,
  AnswerInputSchema,
  MAX_ANSWERS_PER_BATCH,
} from "./answer-input.js";
export {
  type AnswerSource,
  type IngestedAnswer,
  type IngestOptions,
  ingestAnswers,
} from "./ingest.js";
export { type AnswerRetention, startAnswerRetention } from "./retention.js";
