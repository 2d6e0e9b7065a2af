import type { GatedLine } from "../../gate/index.js";
import { renderTable } from "../../formats/index.js";

export interface GateSummary {
  total: number;
  pass: number;
  partial: number;
  fail: number;
  skipped: number;
  invalid: number;
}

export function summarize(lines: GatedLine[]): GateSummary {
  const summary: GateSummary = {
    total: lines.length,
    pass: 0,
    partial: 0,
    fail: 0,
    skipped: 0,
    invalid: 0,
  };
  for (const entry of lines) {
    if (entry.ok) summary[entry.result.status] += 1;
    else summary.invalid += 1;
  }
  return summary;
}

function problems(entry: Extract<GatedLine, { ok: true }>): string {
  return entry.result.checks
    .filter((check) => check.status === "fail" || check.status === "warn")
    .map((check) => `${check.name}:${check.status}`)
    .join(", ");
}

export function renderVerdictTable(lines: GatedLine[]): string {
  const rows = lines.map((entry) =>
    entry.ok
      ? [
          entry.line,
          `${entry.input.conversation_id}/${entry.input.message_id}`,
          entry.result.status,
          entry.result.action,
          problems(entry) || "-",
        ]
      : [entry.line, "-", "invalid", "-", entry.error],
  );
  return renderTable(
    ["line", "conversation/message", "verdict", "action", "failed or warned checks"],
    rows,
    {
      maxCell: 60,
      alignRight: [0],
    },
  );
}

export function renderSummaryTable(summary: GateSummary): string {
  const pct = (n: number) =>
    summary.total === 0 ? "0.0%" : `${((100 * n) / summary.total).toFixed(1)}%`;
  const rows = (["pass", "partial", "fail", "skipped", "invalid"] as const).map((key) => [
    key,
    summary[key],
    pct(summary[key]),
  ]);
  rows.push(["total", summary.total, "100%"]);
  return renderTable(["verdict", "answers", "share"], rows, { alignRight: [1, 2] });
}

// XML 1.0 forbids these control characters; matching them is the point.
// eslint-disable-next-line no-control-regex
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

function xml(text: string): string {
  return (
    text
      .replace(/&/g, "&amp;")
      .replace(/</g, "&lt;")
      .replace(/>/g, "&gt;")
      .replace(/"/g, "&quot;")
      // XML 1.0 forbids most control characters even when escaped.
      .replace(XML_FORBIDDEN, "")
  );
}

/** JUnit XML: one test case per line; a fail verdict is a failure, an invalid line an error. */
export function renderJunit(lines: GatedLine[], suiteName = "ragjudge gate"): string {
  const summary = summarize(lines);
  const cases = lines.map((entry) => {
    if (!entry.ok) {
      return `  <testcase classname="gate" name="line ${entry.line}"><error message="${xml(entry.error)}"/></testcase>`;
    }
    const name = xml(`line ${entry.line} ${entry.input.conversation_id}/${entry.input.message_id}`);
    const body =
      entry.result.status === "fail"
        ? `<failure message="${xml(problems(entry))}">${xml(JSON.stringify(entry.result.checks))}</failure>`
        : entry.result.status === "skipped"
          ? "<skipped/>"
          : entry.result.status === "partial"
            ? `<system-out>${xml(`partial: ${problems(entry)}`)}</system-out>`
            : "";
    return `  <testcase classname="gate" name="${name}">${body}</testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${xml(suiteName)}" tests="${summary.total}" failures="${summary.fail}" errors="${summary.invalid}" skipped="${summary.skipped}">`,
    ...cases,
    "</testsuite>",
    "",
  ].join("\n");
}
