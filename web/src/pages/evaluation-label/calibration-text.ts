import { formatPercent } from "../../components/format";
import type { MessageKey } from "../../i18n/strings";
import type { CalibrationReport } from "./queries";

// The calibration report in words a person without statistics can read: each condition of the
// golden-set verdict as a sentence, and every figure as a row of the panel's table.

type Condition = CalibrationReport["verdict"]["conditions"][number];
export interface Message {
  key: MessageKey;
  values: Record<string, string | number>;
}

const points = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : value.toFixed(2);

/** One condition of the verdict as a sentence (shares as percentages, κ and MAE as numbers). */
export function conditionMessage(condition: Condition, report: CalibrationReport): Message {
  const tolerance = report.options.tolerance;
  switch (condition.name) {
    case "within_1":
    case "accuracy":
      return {
        key: condition.name === "within_1" ? "calib.cond.within_1" : "calib.cond.accuracy",
        values: {
          value: formatPercent(condition.value),
          threshold: formatPercent(condition.threshold),
          tolerance,
        },
      };
    case "kappa":
      return {
        key: "calib.cond.kappa",
        values: { value: points(condition.value), threshold: points(condition.threshold) },
      };
    case "beats_baseline":
      if (report.verdict.basis === "pass_fail") {
        const constant = report.pass_fail?.baseline?.constant;
        return {
          key: "calib.cond.beats_baseline_pf",
          values: {
            value: formatPercent(condition.value),
            threshold: formatPercent(condition.threshold),
            constant: constant === undefined ? "—" : constant ? "pass" : "fail",
          },
        };
      }
      return {
        key: "calib.cond.beats_baseline",
        values: {
          value: points(condition.value),
          threshold: points(condition.threshold),
          constant: report.baseline?.constant ?? "—",
        },
      };
    case "labels":
      return { key: "calib.cond.labels", values: {} };
  }
}

/** The conditions that failed first: the reason for the verdict leads. */
export function conditionsInOrder(report: CalibrationReport): Condition[] {
  return [...report.verdict.conditions].sort((a, b) => Number(a.ok) - Number(b.ok));
}

export interface FigureRow {
  key: MessageKey;
  values?: Record<string, string | number>;
  judge: string;
  baseline: string;
}

/** Every figure of the report, the judge's beside the constant baseline's where there is one. */
export function figureRows(report: CalibrationReport): FigureRow[] {
  const rows: FigureRow[] = [];
  const a = report.agreement;
  const b = report.baseline;
  const tolerance = report.options.tolerance;
  if (a) {
    rows.push(
      { key: "calib.row.n", judge: String(a.n), baseline: b ? String(b.n) : "—" },
      { key: "calib.row.mae", judge: points(a.mae), baseline: points(b?.mae) },
      {
        key: "calib.row.within",
        values: { tolerance },
        judge: formatPercent(a.within_1),
        baseline: formatPercent(b?.within_1),
      },
      {
        key: "calib.row.kappa",
        judge: points(a.kappa_quadratic),
        baseline: points(b?.kappa_quadratic),
      },
      {
        key: "calib.row.alpha",
        judge: points(a.alpha_ordinal),
        baseline: points(b?.alpha_ordinal),
      },
      { key: "calib.row.spearman", judge: points(a.spearman), baseline: points(b?.spearman) },
      {
        key: "calib.row.kendall",
        judge: points(a.kendall_tau_b),
        baseline: points(b?.kendall_tau_b),
      },
    );
  }
  const pf = report.pass_fail;
  if (pf) {
    rows.push(
      {
        key: "calib.row.accuracy",
        judge: formatPercent(pf.accuracy),
        baseline: formatPercent(pf.baseline?.accuracy),
      },
      { key: "calib.row.passKappa", judge: points(pf.kappa), baseline: points(pf.baseline?.kappa) },
    );
  }
  const rate = (r: { estimate: number; ci: number[] } | null) =>
    r ? `${formatPercent(r.estimate)} [${formatPercent(r.ci[0])}, ${formatPercent(r.ci[1])}]` : "—";
  rows.push(
    { key: "calib.row.rateJudge", judge: rate(report.pass_rate.judge), baseline: "—" },
    { key: "calib.row.rateHuman", judge: rate(report.pass_rate.human), baseline: "—" },
    { key: "calib.row.ratePpi", judge: rate(report.pass_rate.ppi), baseline: "—" },
  );
  return rows;
}
