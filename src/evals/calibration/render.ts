import { renderTable } from "../../formats/index.js";
import { type MessageLanguage, wordMessage } from "../../text/index.js";
import type { CalibrationReport } from "./report.js";

const num = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? "-" : Number(value.toFixed(digits)).toString();
const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? "-" : `${(value * 100).toFixed(1)}%`;
const interval = (ci: [number, number] | undefined) =>
  ci ? `[${pct(ci[0])}, ${pct(ci[1])}]` : "-";

/**
 * `ragjudge calibrate --format table`: the figures, the verdict and what to review; its warnings
 * in `lang` (`--lang zh`).
 */
export function renderCalibrationTable(
  report: CalibrationReport,
  lang: MessageLanguage = "en",
): string {
  const out: string[] = [];
  const { items, agreement, baseline, pass_fail: passFail, pass_rate: rate, verdict } = report;
  out.push(
    `Calibration of the ${report.judge} judge on "${report.evaluation.name}" (${report.evaluation.id})` +
      (report.scale ? `, human scores on ${report.scale}` : ", pass/fail"),
  );
  out.push(
    `judged ${items.judged} · human scores ${items.labelled_scores} · human pass/fail ${items.labelled_pass}` +
      (items.skipped_judge_errors > 0
        ? ` · skipped (judge errors) ${items.skipped_judge_errors}`
        : ""),
  );
  if (agreement) {
    out.push("");
    const base = baseline;
    const rows: [string, string, string][] = [
      ["n", String(agreement.n), String(base?.n ?? "-")],
      ["MAE", num(agreement.mae), num(base?.mae)],
      [`within ±${report.options.tolerance}`, pct(agreement.within_1), pct(base?.within_1)],
      ["κ (quadratic)", num(agreement.kappa_quadratic), num(base?.kappa_quadratic)],
      ["α (Krippendorff, ordinal)", num(agreement.alpha_ordinal), num(base?.alpha_ordinal)],
      ["Spearman ρ", num(agreement.spearman), num(base?.spearman)],
      ["Kendall τ-b", num(agreement.kendall_tau_b), num(base?.kendall_tau_b)],
    ];
    out.push(
      renderTable(
        ["scores", "judge", `constant baseline (always ${base?.constant ?? "-"})`],
        rows,
        {
          alignRight: [1, 2],
        },
      ),
    );
  }
  if (passFail) {
    const base = passFail.baseline;
    const source = passFail.human_pass_source;
    out.push("");
    out.push(
      `pass/fail: people's pass from ${source.labels} pass/fail labels` +
        (source.scores > 0 ? ` and ${source.scores} scores ≥ ${source.threshold}` : ""),
    );
    out.push(
      renderTable(
        ["pass/fail", "judge", `constant baseline (always ${base?.constant ? "pass" : "fail"})`],
        [
          ["accuracy", pct(passFail.accuracy), pct(base?.accuracy)],
          ["TPR (people pass, judge passes)", pct(passFail.tpr), pct(base?.tpr)],
          ["TNR (people fail, judge fails)", pct(passFail.tnr), pct(base?.tnr)],
          ["κ", num(passFail.kappa), num(base?.kappa)],
          [
            "TP / FP / TN / FN",
            `${passFail.tp} / ${passFail.fp} / ${passFail.tn} / ${passFail.fn}`,
            base ? `${base.tp} / ${base.fp} / ${base.tn} / ${base.fn}` : "-",
          ],
        ],
        { alignRight: [1, 2] },
      ),
    );
  }
  out.push("");
  out.push(
    renderTable(
      ["pass rate", "estimate", "95% CI", "from"],
      [
        [
          "judge only",
          pct(rate.judge?.estimate),
          interval(rate.judge?.ci),
          rate.judge ? `${rate.judge.n} judged (Wilson)` : "-",
        ],
        [
          "human only",
          pct(rate.human?.estimate),
          interval(rate.human?.ci),
          rate.human ? `${rate.human.n} labelled (Wilson)` : "-",
        ],
        [
          "prediction-powered (PPI++)",
          pct(rate.ppi?.estimate),
          interval(rate.ppi?.ci),
          rate.ppi
            ? `${rate.ppi.n} labelled + ${rate.ppi.N} judged, λ = ${num(rate.ppi.lambda)} (CLT)`
            : "-",
        ],
      ],
      { alignRight: [1] },
    ),
  );
  out.push("");
  out.push(
    `Golden-set verdict: ${verdict.passed ? "PASS" : "FAIL"}` +
      (verdict.basis === "none"
        ? ""
        : ` (on ${verdict.basis === "scores" ? "scores" : "pass/fail"})`),
  );
  for (const condition of verdict.conditions) {
    out.push(`  ${condition.ok ? "ok  " : "FAIL"} ${condition.message}`);
  }
  if (report.disagreements.length > 0) {
    out.push("");
    out.push("Largest disagreements (review these first):");
    out.push(
      renderTable(
        ["#", "judge", "human", "diff", "pass j/h", "question", "note"],
        report.disagreements.map((d) => [
          d.position + 1,
          num(d.judge_score, 2),
          d.human_score ?? "-",
          d.difference === null ? "-" : num(d.difference, 2),
          `${yesNo(d.judge_passed)}/${yesNo(d.human_passed)}`,
          d.question,
          d.note ?? "",
        ]),
        { maxCell: 50, alignRight: [0, 1, 2, 3] },
      ),
    );
  }
  if (report.reviewers.length > 0) {
    out.push("");
    out.push("The judge against each reviewer (annotation queues):");
    out.push(
      renderTable(
        ["reviewer", "n", "MAE", `within ±${report.options.tolerance}`, "κ", "pass/fail κ"],
        report.reviewers.map((r) => [
          r.reviewer,
          String(r.scores?.n ?? r.pass_fail?.n ?? 0),
          num(r.scores?.mae),
          pct(r.scores?.within_1),
          num(r.scores?.kappa_quadratic),
          num(r.pass_fail?.kappa),
        ]),
        { alignRight: [1, 2, 3, 4, 5] },
      ),
    );
  }
  const warningLabel = lang === "zh" ? "警告：" : "warning: ";
  for (const warning of report.warnings) out.push(`${warningLabel}${wordMessage(warning, lang)}`);
  return `${out.join("\n")}\n`;
}

function yesNo(value: boolean | null): string {
  return value === null ? "-" : value ? "pass" : "fail";
}
