import type { EvaluationReport } from "./report.js";
import { questionsSection, type ReportSection, summarySections } from "./sections.js";

/** A GitHub table cell: pipes escaped, line breaks as <br>, HTML left inert (no tag can open). */
function cell(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/\|/g, "\\|")
    .replace(/\r?\n/g, "<br>");
}

function markdownTable(section: ReportSection): string {
  const header = `| ${section.headers.map((h) => cell(h) || " ").join(" | ")} |`;
  const rule = `|${section.headers
    .map((_, col) => (section.alignRight.includes(col) ? " ---: " : " --- "))
    .join("|")}|`;
  const rows = section.rows.map((row) => `| ${row.map((c) => cell(c) || " ").join(" | ")} |`);
  return [header, rule, ...rows].join("\n");
}

/** The report as GitHub-flavoured Markdown: the summary's tables, then the per-question table. */
export function renderMarkdownReport(report: EvaluationReport): string {
  const { evaluation } = report;
  const parts = [`# Evaluation: ${cell(evaluation.name)}`, ""];
  for (const section of summarySections(report)) {
    parts.push(`## ${section.title}`, "", markdownTable(section), "");
  }
  parts.push(
    `## ${questionsSection(report, 80).title}`,
    "",
    markdownTable(questionsSection(report, 80)),
    "",
  );
  parts.push(
    "_Averages and pass rates count scored questions only; bot and judge errors are listed, never scored as zero._",
    "",
  );
  return parts.join("\n");
}
