import { renderTable } from "../../formats/index.js";
import type { EvaluationReport } from "./report.js";
import { questionsSection, type ReportSection, summarySections } from "./sections.js";

function renderSection(section: ReportSection, maxCell: number): string {
  return `${section.title}\n${renderTable(section.headers, section.rows, {
    alignRight: section.alignRight,
    maxCell,
  })}`;
}

/** The summary as plain-text tables: status, counts, scores, judges, gate, question types, errors. */
export function renderSummaryTable(report: EvaluationReport): string {
  return `${summarySections(report)
    .map((section) => renderSection(section, 130))
    .join("\n\n")}\n`;
}

/** The summary, then one compact row per question. */
export function renderTableReport(report: EvaluationReport): string {
  return `${renderSummaryTable(report)}\n${renderSection(questionsSection(report), 60)}\n`;
}
