// Public face of production/: the answers a RAG system gives its users, taken in by the API (and
// OpenTelemetry traces), gated as they arrive and stored by day (issue 24).
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
export {
  type AttributeValue,
  decodeTraces,
  type DecodedTraces,
  inflateBody,
  OTLP_LIMITS,
  type OtlpEncoding,
  OtlpInputError,
  type OtlpLimits,
  type OtlpSpan,
} from "./otlp/decode.js";
export { assembleTrace, type AssembledTrace } from "./otlp/assemble.js";
export {
  encodeStatusProto,
  encodeTraceRequestProto,
  encodeTraceResponseProto,
} from "./otlp/otlp-proto.js";
export {
  createTraceAssembler,
  TRACE_DEFAULTS,
  type TraceAssembler,
  type TraceAssemblerOptions,
  type TraceCounts,
  TraceBacklogError,
} from "./otlp/pending.js";
export * from "./alerts/index.js";
export {
  callsPerAnswer,
  MONITOR_JUDGES,
  type MonitorFilter,
  MonitorFilterSchema,
  type MonitorInput,
  type MonitorInputIn,
  MonitorInputSchema,
} from "./monitors/definition.js";
export { matchesFilter, sampledIn } from "./monitors/filter.js";
export {
  type MonitorDispatch,
  type StoredForMonitors,
  takeUpNewAnswers,
  takeUpOnFeedback,
  type TakeUpResult,
} from "./monitors/take-up.js";
export { judgeAnswer, type StoredJudgeResult } from "./monitors/judge-answer.js";
export {
  type MonitorJob,
  type MonitorWorker,
  type MonitorWorkerOptions,
  sendMonitorJobs,
  startMonitorWorker,
} from "./monitors/worker.js";
export {
  type BucketName,
  BUCKETS,
  MAX_BUCKETS,
  type MonitorSeries,
  readMonitorSeries,
  seriesRange,
  type SeriesRequest,
} from "./series.js";
export { addAnswerFeedback, type FeedbackDeps, type FeedbackInput } from "./feedback.js";
export {
  EVALUATION_EVENT,
  feedbackOfEvent,
  type TraceFeedback,
  traceFeedback,
} from "./otlp/evaluation-events.js";
export { type SpanSummary, summarizeSpans } from "./otlp/span-summary.js";
