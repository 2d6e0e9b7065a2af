import type { MessageLanguage } from "../../text/index.js";
import type { EvaluationReport, ReportResult } from "./report.js";
import { reportWord as word } from "./report-words.js";

// XML 1.0 forbids these control characters even escaped; matching them is the point.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;

/** Text safe in an XML attribute or element. */
export function xmlEscape(text: string): string {
  return text
    .replace(XML_FORBIDDEN, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;")
    .replace(/\r/g, "&#13;")
    .replace(/\n/g, "&#10;");
}

/** Element text: line breaks kept as they are. */
function xmlText(text: string): string {
  return xmlEscape(text).replace(/&#10;/g, "\n");
}

function why(result: ReportResult, lang: MessageLanguage): string {
  const failing = Object.entries(result.judges)
    .filter(([, judge]) => judge.passed === false)
    .map(([kind, judge]) => `${kind} ${judge.raw_score ?? "-"}`);
  const score = result.score === null ? "-" : result.score.toFixed(3);
  const parts = [word(lang, "caseScore", { score })];
  if (result.gate === "fail") parts.push(word(lang, "caseGateFail"));
  if (failing.length > 0)
    parts.push(word(lang, "caseFailedJudges", { judges: failing.join(", ") }));
  return parts.join("; ");
}

function detail(result: ReportResult, lang: MessageLanguage): string {
  return [
    word(lang, "caseQuestion", { text: result.question }),
    word(lang, "caseGroundTruth", { text: result.ground_truth || "-" }),
    word(lang, "caseAnswer", { text: result.answer ?? "-" }),
    word(lang, "caseGate", { verdict: result.gate ?? "-" }),
    ...Object.entries(result.judges).map(
      ([kind, judge]) =>
        word(lang, "caseJudge", {
          kind,
          score: judge.score ?? "-",
          raw: judge.raw_score ?? "-",
          passed: word(lang, judge.passed ? "passedState" : "notPassedState"),
        }) + (judge.reason ? ` (${judge.reason})` : ""),
    ),
  ].join("\n");
}

function testcase(result: ReportResult, lang: MessageLanguage): string {
  const name = xmlEscape(`#${result.position + 1} ${result.question}`);
  const classname = xmlEscape(`ragjudge.eval.${result.question_type}`);
  const time = ((result.latency_ms ?? 0) / 1000).toFixed(3);
  const open = `  <testcase classname="${classname}" name="${name}" time="${time}"`;
  if (result.status === "BOT_ERROR" || result.status === "JUDGE_ERROR") {
    return `${open}><error type="${result.status}" message="${xmlEscape(result.error ?? result.status)}"/></testcase>`;
  }
  if (result.status !== "SCORED") {
    const unfinished = word(lang, "caseNotFinished", { status: result.status });
    return `${open}><skipped message="${xmlEscape(unfinished)}"/></testcase>`;
  }
  if (result.passed !== true) {
    return `${open}><failure type="NOT_PASSED" message="${xmlEscape(why(result, lang))}">${xmlText(detail(result, lang))}</failure></testcase>`;
  }
  return `${open}/>`;
}

/**
 * JUnit XML for CI: one test case per question. A scored question that did not pass is a failure,
 * a bot or judge error an error, an unfinished one skipped. The cases' messages are worded in
 * `lang` (`--lang zh`); a bot's or judge's own error text stays as it came.
 */
export function renderJunitReport(report: EvaluationReport, lang: MessageLanguage = "en"): string {
  const { evaluation, results } = report;
  const count = (test: (r: ReportResult) => boolean) => results.filter(test).length;
  const errors = count((r) => r.status === "BOT_ERROR" || r.status === "JUDGE_ERROR");
  const skipped = count((r) => r.status === "PENDING" || r.status === "RUNNING");
  const failures = count((r) => r.status === "SCORED" && r.passed !== true);
  const time = (results.reduce((sum, r) => sum + (r.latency_ms ?? 0), 0) / 1000).toFixed(3);
  const properties = [
    ["evaluation_id", evaluation.id],
    ["status", evaluation.status],
    ["bot", evaluation.bot_id],
    ["judges", evaluation.judges.join(",")],
    ["average_score", report.summary.average_score?.toFixed(4) ?? ""],
    ["pass_rate", report.summary.pass_rate?.toFixed(4) ?? ""],
  ]
    .map(([name, value]) => `    <property name="${name}" value="${xmlEscape(value ?? "")}"/>`)
    .join("\n");
  const suite = xmlEscape(evaluation.name);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="ragjudge eval" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}">`,
    `<testsuite name="${suite}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${time}">`,
    "  <properties>",
    properties,
    "  </properties>",
    ...results.map((result) => testcase(result, lang)),
    "</testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
