// Seed 002 section 3.2's Auto-Arena: contestants compared on one question set. The maths
// (outcomes, bradley-terry, bootstrap, length-control, standings, swap-rule) is pure; service.ts
// runs it over the store, pairwise.ts asks the judge LLM, report.ts and html.ts draw the results.
export { BOOTSTRAP_DEFAULTS, bootstrapRatings, percentileInterval, quantile } from "./bootstrap.js";
export {
  expectedScore,
  fitBradleyTerry,
  mleExists,
  RATING_BASE,
  RATING_SCALE,
} from "./bradley-terry.js";
export {
  type ArenaResultRow,
  collectContestant,
  type ContestantData,
  RADAR_DIMENSIONS,
} from "./collect.js";
export { renderArenaHtml } from "./html.js";
export { fitLengthControlled, lengthDifference } from "./length-control.js";
export {
  LOSS,
  MISSING,
  type PairOutcomes,
  scoreOutcomes,
  type Tally,
  TIE,
  WIN,
  winRate,
} from "./outcomes.js";
export { judgePair, judgeSwapped, type PairwiseInput, PairwiseReplySchema } from "./pairwise.js";
export { PAIRWISE_PROMPTS } from "./pairwise.prompts.js";
export { type PairwiseRun, runPairwise } from "./pairwise-run.js";
export { seededRandom } from "./prng.js";
export {
  ARENA_FORMATS,
  type ArenaFormat,
  type ArenaReport,
  renderArenaJson,
  renderArenaMarkdown,
  renderArenaTable,
} from "./report.js";
export {
  ARENA_JUDGES,
  type ArenaJudge,
  type ArenaRequest,
  type ArenaRequestInput,
  ArenaRequestSchema,
  type ArenaSnapshot,
  ArenaSnapshotSchema,
  type Contestant,
  ContestantSchema,
  MAX_CONTESTANTS,
} from "./request.js";
export {
  ArenaContestantError,
  ArenaNotFoundError,
  arenaOwnRuns,
  type ArenaResults,
  type ArenaStartOptions,
  type CompleteArenaOptions,
  completeArena,
  deleteArenaWithRuns,
  getArenaRow,
  listArenaRows,
  startArena,
} from "./service.js";
export { type ArenaJob, type ArenaWorker, startArenaWorker } from "./worker.js";
export { computeStandings, type Standings } from "./standings.js";
export { combineSwapped, type PairVerdict } from "./swap-rule.js";
export { renderArena } from "./render.js";
export {
  type ArenaQuestionItem,
  type ArenaQuestionPair,
  type ArenaQuestions,
  arenaQuestions,
  type QuestionOutcome,
} from "./questions.js";
