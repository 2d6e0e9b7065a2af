// Public face of gate/: the evidence gate's schemas, the pure verdict and its configuration, and
// the pipeline that stores verdicts.

export { type AnalysedSentence, AnswerAnalysis } from "./analysis.js";
export {
  checkCitationCoverage,
  checkCitationMarkers,
  checkHonestAbstention,
  checkMinAnswerLength,
  checkNoEmptyAnswer,
  checkNumericConsistency,
  checkRequireCitations,
  checkSentenceSupport,
  GATE_CHECKS,
  type GateCheck,
} from "./checks.js";
export { DEFAULT_GATE_CONFIG, RULES_VERSION, resolveGateConfig, ruleVersion } from "./config.js";
export { aggregateStatus, evaluateGate } from "./evaluate.js";
export * from "./gate-stream.js";
export {
  type CitationMarker,
  computeCitationCoverage,
  extractNodeIds,
  isAbstention,
  type MarkerResolution,
  parseCitationMarkers,
  resolveMarkers,
  sentenceSupport,
} from "./measures.js";
export * from "./pipeline.js";
export * from "./schema.js";
export { type ExplainLanguage, explainCheck } from "./explain.js";
export {
  type GuardDecision,
  type GuardOptions,
  type GuardReason,
  type GuardResult,
  guard,
} from "./guard.js";
export { type RemovedSentence, type Repair, repairAnswer } from "./repair.js";
