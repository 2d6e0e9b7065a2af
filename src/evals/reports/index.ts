// Public face of evals/reports: a run's report (buildReport) in table, JSON, JUnit and Markdown,
// and the CI checks on it (thresholds, comparison with a baseline run). Pure: no IO.
export {
  type BaselineComparison,
  compareToBaseline,
  DEFAULT_BASELINE_TOLERANCE,
  type QuestionChange,
  type QuestionStanding,
} from "./baseline.js";
export { renderCsvReport } from "./csv.js";
export { jsonReportChunks, renderJsonReport } from "./json.js";
export { renderJunitReport, xmlEscape } from "./junit.js";
export { renderMarkdownReport } from "./markdown.js";
export { type ReportWord, reportWord } from "./report-words.js";
export {
  buildReport,
  type EvaluationReport,
  OFFLINE_MEASURES,
  type ReportEvaluation,
  type ReportEvaluationRow,
  type ReportJudge,
  type ReportLabel,
  type ReportLabelRow,
  type ReportResult,
  type ReportResultRow,
  type ReportSource,
  reportResultOf,
  withLabels,
} from "./report.js";
export { renderReport, REPORT_FORMATS, type ReportFormat } from "./render.js";
export { renderSummaryTable, renderTableReport } from "./table.js";
export {
  checkThresholds,
  type ThresholdCheck,
  type Thresholds,
  ThresholdsSchema,
} from "./thresholds.js";
