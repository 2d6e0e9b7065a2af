import { renderTable } from "../../formats/index.js";
import { type MessageLanguage, wordMessage } from "../../text/index.js";
import { type CalibrationWord, calibrationWord } from "./render-words.js";
import type { CalibrationReport } from "./report.js";

const num = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? "-" : Number(value.toFixed(digits)).toString();
const pct = (value: number | null | undefined) =>
  value === null || value === undefined ? "-" : `${(value * 100).toFixed(1)}%`;
/** A verdict condition in the table's language, from its own figures. */
function conditionWords(
  report: CalibrationReport,
  condition: CalibrationReport["verdict"]["conditions"][number],
  w: (word: CalibrationWord, values?: Record<string, string | number>) => string,
): string {
  const onScores = report.verdict.basis === "scores";
  const figures = { value: num(condition.value), threshold: num(condition.threshold) };
  switch (condition.name) {
    case "within_1":
      return w("condWithin", { ...figures, tolerance: report.options.tolerance });
    case "accuracy":
      return w("condAccuracy", figures);
    case "kappa":
      return w("condKappa", {
        ...figures,
        what: w(onScores ? "condKappaScores" : "condKappaPassFail"),
      });
    case "beats_baseline": {
      const constant = onScores
        ? String(report.baseline?.constant ?? "-")
        : report.pass_fail?.baseline?.constant
          ? w("pass")
          : w("fail");
      return w(condition.ok ? "condBeats" : "condBeatsNot", {
        ...figures,
        what: onScores ? "MAE" : w("accuracy"),
        constant,
      });
    }
    case "labels":
      return w("condLabels");
  }
}
const interval = (ci: [number, number] | undefined) =>
  ci ? `[${pct(ci[0])}, ${pct(ci[1])}]` : "-";

/**
 * `ragjudge calibrate --format table`: the figures, the verdict and what to review; its headings,
 * labels and warnings in `lang` (`--lang zh`).
 */
export function renderCalibrationTable(
  report: CalibrationReport,
  lang: MessageLanguage = "en",
): string {
  const w = (word: CalibrationWord, values?: Record<string, string | number>) =>
    calibrationWord(lang, word, values);
  const passWord = (value: boolean | null) =>
    value === null ? "-" : value ? w("pass") : w("fail");
  const out: string[] = [];
  const { items, agreement, baseline, pass_fail: passFail, pass_rate: rate, verdict } = report;
  const about = { judge: report.judge, name: report.evaluation.name, id: report.evaluation.id };
  out.push(
    report.scale ? w("titleScores", { ...about, scale: report.scale }) : w("titlePassFail", about),
  );
  out.push(
    w("counts", {
      judged: items.judged,
      scores: items.labelled_scores,
      pass: items.labelled_pass,
    }) + (items.skipped_judge_errors > 0 ? w("skipped", { n: items.skipped_judge_errors }) : ""),
  );
  if (agreement) {
    out.push("");
    const base = baseline;
    const rows: [string, string, string][] = [
      ["n", String(agreement.n), String(base?.n ?? "-")],
      ["MAE", num(agreement.mae), num(base?.mae)],
      [
        w("within", { tolerance: report.options.tolerance }),
        pct(agreement.within_1),
        pct(base?.within_1),
      ],
      [w("kappaQuadratic"), num(agreement.kappa_quadratic), num(base?.kappa_quadratic)],
      [w("alpha"), num(agreement.alpha_ordinal), num(base?.alpha_ordinal)],
      ["Spearman ρ", num(agreement.spearman), num(base?.spearman)],
      ["Kendall τ-b", num(agreement.kendall_tau_b), num(base?.kendall_tau_b)],
    ];
    out.push(
      renderTable(
        [w("scores"), w("judge"), w("constantBaseline", { value: base?.constant ?? "-" })],
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
      w("passFailSource", { labels: source.labels }) +
        (source.scores > 0
          ? w("passFailScores", { scores: source.scores, threshold: source.threshold ?? "-" })
          : ""),
    );
    out.push(
      renderTable(
        [
          w("passFail"),
          w("judge"),
          w("constantBaseline", { value: base?.constant ? w("pass") : w("fail") }),
        ],
        [
          [w("accuracy"), pct(passFail.accuracy), pct(base?.accuracy)],
          [w("tpr"), pct(passFail.tpr), pct(base?.tpr)],
          [w("tnr"), pct(passFail.tnr), pct(base?.tnr)],
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
      [w("passRate"), w("estimate"), w("ci"), w("from")],
      [
        [
          w("judgeOnly"),
          pct(rate.judge?.estimate),
          interval(rate.judge?.ci),
          rate.judge ? w("judgedWilson", { n: rate.judge.n }) : "-",
        ],
        [
          w("humanOnly"),
          pct(rate.human?.estimate),
          interval(rate.human?.ci),
          rate.human ? w("labelledWilson", { n: rate.human.n }) : "-",
        ],
        [
          w("ppi"),
          pct(rate.ppi?.estimate),
          interval(rate.ppi?.ci),
          rate.ppi
            ? w("ppiFrom", { n: rate.ppi.n, N: rate.ppi.N, lambda: num(rate.ppi.lambda) })
            : "-",
        ],
      ],
      { alignRight: [1] },
    ),
  );
  out.push("");
  out.push(
    // PASS / FAIL stay as they are: scripts look for them.
    w("verdict", { verdict: verdict.passed ? "PASS" : "FAIL" }) +
      (verdict.basis === "none"
        ? ""
        : verdict.basis === "scores"
          ? w("onScores")
          : w("onPassFail")),
  );
  for (const condition of verdict.conditions) {
    const sentence = lang === "en" ? condition.message : conditionWords(report, condition, w);
    out.push(`  ${condition.ok ? "ok  " : "FAIL"} ${sentence}`);
  }
  if (report.disagreements.length > 0) {
    out.push("");
    out.push(w("disagreements"));
    out.push(
      renderTable(
        ["#", w("judge"), w("human"), w("diff"), w("passJH"), w("question"), w("note")],
        report.disagreements.map((d) => [
          d.position + 1,
          num(d.judge_score, 2),
          d.human_score ?? "-",
          d.difference === null ? "-" : num(d.difference, 2),
          `${passWord(d.judge_passed)}/${passWord(d.human_passed)}`,
          d.question,
          d.note ?? "",
        ]),
        { maxCell: 50, alignRight: [0, 1, 2, 3] },
      ),
    );
  }
  if (report.reviewers.length > 0) {
    out.push("");
    out.push(w("reviewersTitle"));
    out.push(
      renderTable(
        [
          w("reviewer"),
          "n",
          "MAE",
          w("within", { tolerance: report.options.tolerance }),
          "κ",
          w("passFailKappa"),
        ],
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
