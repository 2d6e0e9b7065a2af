// Following evaluation runs: listings with progress, one run's detail and results, and a watch
// for live streams over one shared poller per run (works whichever machine runs the workers).
export {
  chartsOf,
  type EvaluationCharts,
  HISTOGRAM_BINS,
  histogramOf,
  type RadarDimension,
  radarOf,
} from "./charts.js";
export {
  type Change,
  type CompareCounts,
  type CompareItem,
  type CompareSide,
  changeOf,
  compareRows,
  questionKey,
} from "./compare.js";
export { type Incomparability, incomparabilityOf, type JudgeScale } from "./comparability.js";
export { resultsCsv } from "./results-file.js";
export {
  type ComparedRun,
  compareEvaluations,
  type EvaluationComparison,
  evaluationCharts,
  filteredResultsPage,
  questionSetTrend,
  resultsListPage,
  type TrendPoint,
  type EvaluationDetail,
  type EvaluationWithProgress,
  evaluationDetail,
  evaluationResult,
  evaluationResultsPage,
  listEvaluationsWithProgress,
  mustGetEvaluation,
  RESULT_STATUSES,
  RESULTS_PAGE,
} from "./views.js";
export {
  createRunFeeds,
  RUN_FEED_DEFAULTS,
  type RunFeedOptions,
  type RunFeeds,
} from "./run-feeds.js";
export {
  STREAM_FAILED_MESSAGE,
  type WatchEvent,
  type WatchOptions,
  watchEvaluation,
} from "./watch.js";
