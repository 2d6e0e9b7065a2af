// Claim-level diagnostics as RAGChecker defines them: the metrics from claim verdicts, the LLM
// judge that extracts and checks claims, and its offline approximation.
export { CLAIMS_PROMPTS, type ClaimsPrompts } from "./claims.prompts.js";
export { type ClaimsResult, ClaimsReplySchema, claims, verdictsReplySchema } from "./claims.js";
export {
  CLAIM_METRIC_GROUPS,
  CLAIM_VERDICTS,
  type ClaimChecks,
  type ClaimMetrics,
  type ClaimMetricsReport,
  type ClaimVerdict,
  claimMetrics,
  numpyRound1,
  numpySum,
  reportClaimMetrics,
} from "./metrics.js";
export {
  CLAIMS_OFFLINE_MODEL,
  type OfflineClaimsResult,
  offlineClaims,
  sentenceClaims,
} from "./offline-claims.js";
export {
  type ChunkSummary,
  type ClaimsDiagnosis,
  type ClaimsInput,
  ClaimsInputSchema,
  type ClaimsVerdict,
  checksOf,
  claimsVerdict,
  type GroundTruthClaim,
  OFFLINE_APPROXIMATION,
  type ResponseClaim,
} from "./verdict.js";
export {
  CLAIM_GROUP_LABELS,
  CLAIM_METRIC_LABELS,
  type ClaimsSummary,
  claimReportRows,
  claimsSummary,
} from "./summary.js";
