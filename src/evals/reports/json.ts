import type { EvaluationReport } from "./report.js";

/** The whole report as JSON: the run, its summary, and every question's result with its scores. */
export function renderJsonReport(report: EvaluationReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
