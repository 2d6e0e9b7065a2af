import type { EvaluationReport } from "./report.js";

/** `JSON.stringify(value, null, 2)` nested `depth` levels deep (JSON strings hold no raw newline). */
const nested = (value: unknown, depth: number): string =>
  JSON.stringify(value, null, 2).replaceAll("\n", `\n${"  ".repeat(depth)}`);

/**
 * The JSON report a piece at a time (one per result), so a large run's report is written without
 * being held whole as one string: the same text as `JSON.stringify(report, null, 2)`.
 */
export function* jsonReportChunks(report: EvaluationReport): Generator<string> {
  let first = true;
  yield "{";
  for (const [key, value] of Object.entries(report)) {
    if (value === undefined) continue; // as JSON.stringify leaves it out
    yield `${first ? "" : ","}\n  ${JSON.stringify(key)}: `;
    first = false;
    if (key !== "results" || !Array.isArray(value) || value.length === 0) {
      yield nested(value, 1);
      continue;
    }
    yield "[";
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? "" : ","}\n    ${nested(value[i], 2)}`;
    }
    yield "\n  ]";
  }
  yield first ? "}\n" : "\n}\n";
}

/** The whole report as JSON: the run, its summary, and every question's result with its scores. */
export function renderJsonReport(report: EvaluationReport): string {
  return [...jsonReportChunks(report)].join("");
}
