// Public face of rag/loops: seed 001's quality-control loop, seed 000's answer-evaluation loop,
// the state machine they run on, and `ask`, which ties them to the evidence gate.

export {
  ANSWER_NODES,
  type AnswerConfig,
  type AnswerEvaluation,
  type AnswerExitReason,
  type AnswerLoopContext,
  type AnswerLoopDeps,
  type AnswerLoopInput,
  type AnswerLoopRun,
  type AnswerNode,
  type AnswerState,
  answerLoopContext,
  answerMachine,
  evalAnswer,
  evalAnswerRoute,
  type GenerationRecord,
  generateAnswer,
  initialAnswerState,
  type LoopLogger,
  processWarningLogger,
  revisionRequest,
  runAnswerLoop,
  shouldRegenerate,
} from "./answer-loop.js";
export {
  EXTRACTIVE_ABSTENTION,
  GATE_NOTICES,
  GENERATION_SYSTEM,
  NO_SUGGESTIONS,
  REVISION_REQUEST,
} from "./answer-loop.prompts.js";
export {
  type AskContext,
  type AskInput,
  AskInputError,
  AskInputSchema,
  type AskResponse,
  type AskResult,
  ask,
} from "./ask.js";
export { citationRef, citedNodeIds, formatChunks } from "./citations.js";
export {
  DEFAULT_LOOPS_CONFIG,
  type LoopsConfig,
  LoopsConfigError,
  type LoopsConfigInput,
  LoopsConfigSchema,
  type ObservationsConfig,
  parseLoopsConfig,
  type QualityConfig,
  type QualityWeights,
} from "./config.js";
export {
  type ExtractedSentence,
  type ExtractiveAnswer,
  type ExtractiveOptions,
  extractiveAnswer,
} from "./extractive-generator.js";
export { type FixedHits, fixedRetriever, makeHit } from "./fixed-retriever.js";
export { type GateInputSource, gateInputFrom, gateVerdictFor } from "./gate-input.js";
export {
  type AnswerGenerator,
  EXTRACTIVE_MODEL,
  extractiveGenerator,
  type GeneratedAnswer,
  type GenerateRequest,
  llmGenerator,
} from "./generators.js";
export { answerLoopMermaid, machineMermaid, qualityLoopMermaid } from "./mermaid.js";
export {
  appendJsonLines,
  OBSERVATION_FILE_DEFAULTS,
  type ObservationFileLimits,
  perUserObservationPath,
} from "./observation-file.js";
export {
  type AppendObservations,
  type ObservationDbRow,
  type ObservationOutcome,
  type ObservationRecord,
  observationRows,
  parseObservation,
  type RetrievedNodeScore,
  recordObservation,
} from "./observations.js";
export { type OfflineReview, offlineReview, suggestionsFromGate } from "./offline-review.js";
export {
  QualityChecker,
  type QualityCheckerOptions,
  type QualityDimensions,
  type QualityGrade,
  type QualityIssue,
  type QualityReport,
  resolvePrioritySource,
} from "./quality-checker.js";
export { QUALITY_ISSUE_MESSAGES, type QualityIssueCode } from "./quality-checker.messages.js";
export {
  type GradeRecord,
  gradeDocuments,
  gradeDocumentsRoute,
  initialQualityState,
  QUALITY_NODES,
  type QualityExitReason,
  type QualityLoopContext,
  type QualityLoopDeps,
  type QualityLoopInput,
  type QualityLoopRun,
  type QualityNode,
  type QualityState,
  type QuestionRouter,
  qualityExitReason,
  qualityMachine,
  questionRouter,
  type RewriteRecord,
  retrieve,
  rewriteQuery,
  runQualityLoop,
} from "./quality-loop.js";
export {
  cleanRewriteReply,
  expandQuery,
  QueryRewriter,
  type QueryRewriterOptions,
  type Rewrite,
  type RewriteConfig,
  type RewriteRequest,
  requestedSourcesFor,
  rewriteMessages,
} from "./query-rewriter.js";
export { REWRITE_PROMPTS, REWRITE_STRATEGIES, SOURCE_HINTS } from "./query-rewriter.prompts.js";
export { ModelFailureError } from "./model-failure.js";
export {
  type AnswerReview,
  type AnswerReviewer,
  llmReviewer,
  OFFLINE_REVIEW_MODEL,
  offlineReviewer,
  type ReviewRequest,
} from "./reviewers.js";
export {
  END,
  type End,
  LoopStepError,
  type MachineRun,
  type MachineSpec,
  type NodeFn,
  type RouterEdge,
  type RunContext,
  type RunOptions,
  runMachine,
  type TraceStep,
} from "./state-machine.js";
// The retrieval contract the loops run on, so a caller of the loops alone (an integration) need
// not load rag/'s database bot to name it.
export {
  RETRIEVAL_SOURCES,
  type QueryStats,
  type RetrievalSource,
  type RetrievedHit,
  type RetrieveRequest,
  type RetrieveResult,
  type Retriever,
} from "../types.js";
