// Following evaluation runs: listings with progress, one run's detail and results, and a polling
// watch for live streams (works whichever machine runs the workers).
export {
  type EvaluationDetail,
  type EvaluationWithProgress,
  evaluationDetail,
  evaluationResultsPage,
  listEvaluationsWithProgress,
  mustGetEvaluation,
  RESULT_STATUSES,
  RESULTS_PAGE,
} from "./views.js";
export { type WatchEvent, type WatchOptions, watchEvaluation } from "./watch.js";
