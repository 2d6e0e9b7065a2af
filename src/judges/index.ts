// The judges' public face: LLM judges as plain async functions with one result shape, and the
// offline (no-LLM) judges of ./offline.
export {
  CLAIM_METRIC_GROUPS,
  CLAIM_VERDICTS,
  CLAIMS_OFFLINE_MODEL,
  CLAIMS_PROMPTS,
  type ClaimChecks,
  type ClaimMetrics,
  type ClaimMetricsReport,
  type ClaimVerdict,
  type ClaimsDiagnosis,
  type ClaimsInput,
  ClaimsInputSchema,
  type ClaimsResult,
  type ClaimsVerdict,
  claimMetrics,
  claims,
  OFFLINE_APPROXIMATION,
  type OfflineClaimsResult,
  offlineClaims,
  reportClaimMetrics,
  sentenceClaims,
} from "./claims/index.js";
export {
  DEFAULT_JUDGES_CONFIG,
  type JudgesConfig,
  type JudgesConfigInput,
  JudgesConfigSchema,
  type RubricFewshot,
  RubricFewshotSchema,
} from "./config.js";
export {
  type ContextItem,
  ContextItemSchema,
  ELLIPSIS,
  formatContext,
  truncateChars,
} from "./context.js";
export { JudgeInputError } from "./errors.js";
export {
  JUDGE_KINDS,
  type JudgeKind,
  type JudgeLine,
  type JudgeLineOptions,
  JudgeLineSchema,
  type JudgeOutcome,
  judgeLine,
  judgeLineSchemaFor,
  LLM_JUDGES,
  missingForJudges,
  needsLlm,
} from "./judge-line.js";
export {
  detectLanguage,
  type LanguageSetting,
  type PromptLanguage,
  promptLanguage,
} from "./language.js";
export {
  type Abstention,
  addedSupport,
  BASELINE_MODEL,
  baselineWords,
  type ContainsReferenceVerdict,
  containedReference,
  containsReferenceJudge,
  TOKEN_PRECISION_PASS,
  type TokenPrecisionVerdict,
  tokenPrecision,
  tokenPrecisionJudge,
  countSubQuestions,
  EvidenceText,
  type GroundednessComponents,
  exactMatch,
  type Groundedness,
  groundedness,
  type HeuristicBasis,
  type HeuristicRubric,
  type HeuristicRubricOptions,
  heuristicBasis,
  heuristicRubric,
  lcsLength,
  type MatchInput,
  matchReferences,
  type MeasureInput,
  type MeasureOptions,
  measureAnswer,
  normalizeAnswer,
  OFFLINE_MODEL,
  type OfflineInput,
  OfflineInputSchema,
  type OfflineMeasures,
  type OfflineOptions,
  type OfflineResult,
  type OfflineVerdict,
  offline,
  type ReferenceComponents,
  type ReferenceMatch,
  type ReferenceVerdictKind,
  squadScores,
  offlineJudge,
  type RougeL,
  rougeL,
  squadTokens,
  type TokenF1,
  tokenF1,
} from "./offline/index.js";
export {
  formatReferences,
  type ReferenceInput,
  ReferenceInputSchema,
  type ReferenceResult,
  type ReferenceVerdict,
  ReferenceVerdictSchema,
  reference,
} from "./reference.js";
export { REFERENCE_PROMPTS, type ReferencePrompt } from "./reference.prompts.js";
export { type ReferenceFields, ReferenceFieldsSchema, referencesOf } from "./references.js";
export { type Agreement, agreementOf, type RepeatedJudgeResult, repeatJudge } from "./repeat.js";
export { judgeErrorDetailOf, judgeFailure } from "./result.js";
export type {
  JudgeCallOptions,
  JudgeErrorDetail,
  JudgeFailure,
  JudgeName,
  JudgeResult,
  JudgeScore,
} from "./result.js";
export {
  type ReviewInput,
  ReviewInputSchema,
  type ReviewReply,
  ReviewReplySchema,
  type ReviewResult,
  type ReviewVerdict,
  ReviewVerdictSchema,
  review,
  reviewVerdict,
} from "./review.js";
export { REVIEW_PROMPTS } from "./review.prompts.js";
export {
  type EvaluationMetrics,
  type FineGrainedEvaluationResult,
  type RubricInput,
  RubricInputSchema,
  type RubricMode,
  type RubricReply,
  RubricReplySchema,
  type RubricResult,
  type RubricWeights,
  rubric,
  rubricMode,
  weightedScore,
} from "./rubric.js";
export { RUBRIC_FEWSHOT_LABELS, RUBRIC_PROMPTS, type RubricExample } from "./rubric.prompts.js";
export {
  type JudgeSummary,
  passHatK,
  standardDeviation,
  summarizeJudgeResults,
} from "./summary.js";
export { fillTemplate, type PromptTemplate, renderPrompt } from "./template.js";
