import type { EvaluationReport, ReportResult } from "./report.js";

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

function why(result: ReportResult): string {
  const failing = Object.entries(result.judges)
    .filter(([, judge]) => judge.passed === false)
    .map(([kind, judge]) => `${kind} ${judge.raw_score ?? "-"}`);
  const parts = [`score ${result.score === null ? "-" : result.score.toFixed(3)}`];
  if (result.gate === "fail") parts.push("gate fail");
  if (failing.length > 0) parts.push(`failed: ${failing.join(", ")}`);
  return parts.join("; ");
}

function detail(result: ReportResult): string {
  return [
    `question: ${result.question}`,
    `ground truth: ${result.ground_truth || "-"}`,
    `answer: ${result.answer ?? "-"}`,
    `gate: ${result.gate ?? "-"}`,
    ...Object.entries(result.judges).map(
      ([kind, judge]) =>
        `${kind}: score ${judge.score ?? "-"}, raw ${judge.raw_score ?? "-"}, ${judge.passed ? "passed" : "not passed"}` +
        (judge.reason ? ` (${judge.reason})` : ""),
    ),
  ].join("\n");
}

function testcase(result: ReportResult): string {
  const name = xmlEscape(`#${result.position + 1} ${result.question}`);
  const classname = xmlEscape(`ragjudge.eval.${result.question_type}`);
  const time = ((result.latency_ms ?? 0) / 1000).toFixed(3);
  const open = `  <testcase classname="${classname}" name="${name}" time="${time}"`;
  if (result.status === "BOT_ERROR" || result.status === "JUDGE_ERROR") {
    return `${open}><error type="${result.status}" message="${xmlEscape(result.error ?? result.status)}"/></testcase>`;
  }
  if (result.status !== "SCORED") {
    return `${open}><skipped message="${xmlEscape(`not finished: ${result.status}`)}"/></testcase>`;
  }
  if (result.passed !== true) {
    return `${open}><failure type="NOT_PASSED" message="${xmlEscape(why(result))}">${xmlText(detail(result))}</failure></testcase>`;
  }
  return `${open}/>`;
}

/**
 * JUnit XML for CI: one test case per question. A scored question that did not pass is a failure,
 * a bot or judge error an error, an unfinished one skipped.
 */
export function renderJunitReport(report: EvaluationReport): string {
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
    ...results.map(testcase),
    "</testsuite>",
    "</testsuites>",
    "",
  ].join("\n");
}
