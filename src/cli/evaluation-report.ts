// The end of `ragjudge eval`: a finished (or stopped) run's report with its CI checks — thresholds
// and a baseline —, written where the plan says, and the exit code that follows from it.

import { writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  buildReport,
  checkThresholds,
  compareToBaseline,
  type EvaluationReport,
  jsonReportChunks,
  type ReportFormat,
  renderReport,
  renderSummaryTable,
  reportWord,
  type Thresholds,
  withLabels,
} from "../evals/reports/index.js";
import {
  type Db,
  type EvaluationRow,
  getEvaluation,
  listHumanLabels,
  listReportRows,
} from "../store/index.js";
import type { MessageLanguage } from "../text/index.js";
import { EXIT, incompleteReason } from "./exit-codes.js";
import type { StoreSession } from "./store-session.js";

/** What the report is held to and where it goes, resolved from the command's arguments. */
export interface ReportPlan {
  thresholds: Thresholds;
  /** An earlier evaluation whose scores this one must not fall below (beyond `tolerance`). */
  baseline?: string | undefined;
  tolerance: number;
  format: ReportFormat;
  out?: string | undefined;
  lang: MessageLanguage;
}

/** The report with its CI checks; `failures` says why the exit code is 1, in the plan's language. */
async function reportOf(
  db: Db,
  workspaceId: string,
  row: EvaluationRow,
  plan: ReportPlan,
): Promise<{ report: EvaluationReport; failures: string[] }> {
  const report = buildReport(
    row,
    withLabels(
      await listReportRows(db, workspaceId, row.id),
      await listHumanLabels(db, workspaceId, row.id),
    ),
  );
  const failures: string[] = [];
  const checks = checkThresholds(report.summary, plan.thresholds, plan.lang);
  if (checks.length > 0) report.thresholds = checks;
  failures.push(...checks.filter((c) => !c.ok).map((c) => c.message));
  if (plan.baseline) {
    const base = await getEvaluation(db, workspaceId, plan.baseline);
    if (base) {
      const baseline = buildReport(base, await listReportRows(db, workspaceId, base.id));
      report.baseline = compareToBaseline(report, baseline, {
        tolerance: plan.tolerance,
        lang: plan.lang,
      });
      for (const change of report.baseline.regressions) {
        failures.push(
          reportWord(plan.lang, "regressionOn", {
            n: change.current.position + 1,
            question: change.question.slice(0, 70),
            reason: change.reason,
          }),
        );
      }
    }
  }
  return { report, failures };
}

/** Writes the report where asked and prints the summary; returns the exit code. */
export async function finishEvaluation(
  session: StoreSession,
  row: EvaluationRow,
  plan: ReportPlan,
): Promise<number> {
  const { report, failures } = await reportOf(
    session.store.db,
    session.actor.workspaceId,
    row,
    plan,
  );
  // JSON, the largest format, goes out a result at a time rather than as one string.
  const chunks =
    plan.format === "json"
      ? jsonReportChunks(report)
      : [renderReport(report, plan.format, plan.lang)];
  if (plan.out) {
    await writeFile(plan.out, Readable.from(chunks));
    process.stdout.write(
      `${renderSummaryTable(report, plan.lang)}\nReport (${plan.format}) written to ${plan.out}\n`,
    );
  } else {
    // Standard output holds the machine-readable report alone; the person reads stderr.
    if (plan.format !== "table") process.stderr.write(renderSummaryTable(report, plan.lang));
    await pipeline(Readable.from(chunks), process.stdout, { end: false });
  }
  for (const failure of failures) process.stderr.write(`FAILED: ${failure}\n`);
  const incomplete = incompleteReason(report, plan.lang);
  if (incomplete) {
    process.stderr.write(`INCOMPLETE: ${incomplete}\n`);
    return EXIT.incomplete;
  }
  return failures.length > 0 ? EXIT.checkFailed : EXIT.done;
}
