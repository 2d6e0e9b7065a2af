import { renderTable } from "../../formats/index.js";
import type { MessageLanguage } from "../../text/index.js";
import type { EvaluationReport } from "./report.js";
import { questionsSection, type ReportSection, summarySections } from "./sections.js";

function renderSection(section: ReportSection, maxCell: number): string {
  return `${section.title}\n${renderTable(section.headers, section.rows, {
    alignRight: section.alignRight,
    maxCell,
  })}`;
}

/** The summary as plain-text tables: status, counts, scores, judges, gate, question types, errors. */
export function renderSummaryTable(report: EvaluationReport, lang: MessageLanguage = "en"): string {
  return `${summarySections(report, 10, lang)
    .map((section) => renderSection(section, 130))
    .join("\n\n")}\n`;
}

/** The summary, then one compact row per question; its words in `lang` (`--lang zh`). */
export function renderTableReport(report: EvaluationReport, lang: MessageLanguage = "en"): string {
  return `${renderSummaryTable(report, lang)}\n${renderSection(questionsSection(report, 60, lang), 60)}\n`;
}
