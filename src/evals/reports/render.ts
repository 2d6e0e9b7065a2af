import type { MessageLanguage } from "../../text/index.js";
import { renderCsvReport } from "./csv.js";
import { renderJsonReport } from "./json.js";
import { renderJunitReport } from "./junit.js";
import { renderMarkdownReport } from "./markdown.js";
import type { EvaluationReport } from "./report.js";
import { renderTableReport } from "./table.js";

export const REPORT_FORMATS = ["table", "json", "junit", "markdown", "csv"] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The report in one of the formats; the human ones (table, Markdown) and JUnit's messages in `lang`. */
export function renderReport(
  report: EvaluationReport,
  format: ReportFormat,
  lang: MessageLanguage = "en",
): string {
  switch (format) {
    case "table":
      return renderTableReport(report, lang);
    case "json":
      return renderJsonReport(report);
    case "junit":
      return renderJunitReport(report, lang);
    case "markdown":
      return renderMarkdownReport(report, lang);
    case "csv":
      return renderCsvReport(report);
  }
}
