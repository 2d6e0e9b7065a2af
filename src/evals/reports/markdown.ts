import type { MessageLanguage } from "../../text/index.js";
import type { EvaluationReport } from "./report.js";
import { reportWord } from "./report-words.js";
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

/**
 * The report as GitHub-flavoured Markdown: the summary's tables, then the per-question table; its
 * words in `lang` (`--lang zh`).
 */
export function renderMarkdownReport(
  report: EvaluationReport,
  lang: MessageLanguage = "en",
): string {
  const { evaluation } = report;
  const parts = [`# ${reportWord(lang, "heading", { name: cell(evaluation.name) })}`, ""];
  for (const section of summarySections(report, 10, lang)) {
    parts.push(`## ${section.title}`, "", markdownTable(section), "");
  }
  const questions = questionsSection(report, 80, lang);
  parts.push(`## ${questions.title}`, "", markdownTable(questions), "");
  parts.push(`_${reportWord(lang, "footer")}_`, "");
  return parts.join("\n");
}
