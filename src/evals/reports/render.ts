import { renderCsvReport } from "./csv.js";
import { renderJsonReport } from "./json.js";
import { renderJunitReport } from "./junit.js";
import { renderMarkdownReport } from "./markdown.js";
import type { EvaluationReport } from "./report.js";
import { renderTableReport } from "./table.js";

export const REPORT_FORMATS = ["table", "json", "junit", "markdown", "csv"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The report in one of the formats. */
export function renderReport(report: EvaluationReport, format: ReportFormat): string {
  switch (format) {
    case "table":
      return renderTableReport(report);
    case "json":
      return renderJsonReport(report);
    case "junit":
      return renderJunitReport(report);
    case "markdown":
      return renderMarkdownReport(report);
    case "csv":
      return renderCsvReport(report);
  }
}
