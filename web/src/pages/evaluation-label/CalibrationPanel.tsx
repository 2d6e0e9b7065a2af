import { useId, useState } from "react";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { formatPercent } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { conditionMessage, conditionsInOrder, figureRows } from "./calibration-text";
import { useCalibration } from "./queries";

const points = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : value.toFixed(2);

/**
 * How far a judge of the run agrees with the person's labels (GET …/calibration): the golden-set
 * verdict with the reason it fails, agreement beside the constant baseline, and the pass rate
 * corrected by the labels (PPI++). Every figure is also in a table, hidden until asked for.
 */
export function CalibrationPanel({
  evaluationId,
  judges,
}: {
  evaluationId: string;
  judges: readonly string[];
}) {
  const { t, say } = useI18n();
  const [judge, setJudge] = useState<string | undefined>();
  const [tableShown, setTableShown] = useState(false);
  const id = useId();
  const calibration = useCalibration(evaluationId, judge);
  const report = calibration.data;
  const refused = ApiError.isInstance(calibration.error) && calibration.error.status === 400;

  return (
    <section
      aria-labelledby={`${id}-title`}
      data-testid="calibration-panel"
      style={{ marginTop: "1.5rem" }}
    >
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h2 id={`${id}-title`}>{t("calib.title", { judge: report?.judge ?? judge ?? "…" })}</h2>
        {judges.length > 1 && (
          <label className="inline">
            {t("calib.judge")}{" "}
            <select value={judge ?? report?.judge ?? ""} onChange={(e) => setJudge(e.target.value)}>
              {judges.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {refused ? (
        <p className="notice">
          {t("calib.unavailable", { message: (calibration.error as ApiError).message })}
        </p>
      ) : (
        <ErrorNote error={calibration.error} />
      )}
      {calibration.isPending && <p>{t("common.loading")}</p>}
      {report && (
        <>
          <div
            className={`notice ${report.verdict.passed ? "good" : "bad"}`}
            data-testid="calibration-verdict"
          >
            <strong>{report.verdict.passed ? t("calib.passes") : t("calib.fails")}</strong>
            <ul style={{ margin: "0.4rem 0 0" }}>
              {conditionsInOrder(report).map((condition) => {
                const message = conditionMessage(condition, report);
                return (
                  <li key={condition.name}>
                    <span className={`badge ${condition.ok ? "ok" : "bad"}`}>
                      {condition.ok ? t("calib.met") : t("calib.notMet")}
                    </span>{" "}
                    {t(message.key, message.values)}
                  </li>
                );
              })}
            </ul>
          </div>
          <div className="grid" style={{ marginTop: "0.75rem" }}>
            <div className="stat">
              <div className="label">{t("calib.labelled")}</div>
              <div className="value" data-testid="calibration-n">
                {Math.max(report.items.labelled_scores, report.items.labelled_pass)}
              </div>
            </div>
            {report.agreement && (
              <>
                <div className="stat">
                  <div className="label">{t("calib.mae")}</div>
                  <div className="value">{points(report.agreement.mae)}</div>
                </div>
                <div className="stat">
                  <div className="label">
                    {t("calib.within", { tolerance: report.options.tolerance })}
                  </div>
                  <div className="value">{formatPercent(report.agreement.within_1)}</div>
                </div>
                <div className="stat">
                  <div className="label">{t("calib.kappa")}</div>
                  <div className="value">{points(report.agreement.kappa_quadratic)}</div>
                </div>
              </>
            )}
            {report.baseline && (
              <div className="stat">
                <div className="label">
                  {t("calib.baseline", { constant: report.baseline.constant })}
                </div>
                <div className="value" style={{ fontSize: "1rem" }}>
                  {t("calib.baselineNote", {
                    mae: points(report.baseline.mae),
                    tolerance: report.options.tolerance,
                    within: formatPercent(report.baseline.within_1),
                  })}
                </div>
              </div>
            )}
          </div>
          <h3>{t("calib.passRate")}</h3>
          <ul data-testid="calibration-pass-rate">
            <li>
              {report.pass_rate.ppi ? (
                <strong>
                  {t("calib.ppi", {
                    estimate: formatPercent(report.pass_rate.ppi.estimate),
                    low: formatPercent(report.pass_rate.ppi.ci[0]),
                    high: formatPercent(report.pass_rate.ppi.ci[1]),
                  })}
                </strong>
              ) : (
                t("calib.noPpi")
              )}
            </li>
            {report.pass_rate.judge && (
              <li>
                {t("calib.judgeRate", {
                  estimate: formatPercent(report.pass_rate.judge.estimate),
                  n: report.pass_rate.judge.n,
                })}
              </li>
            )}
            {report.pass_rate.human && (
              <li>
                {t("calib.humanRate", {
                  estimate: formatPercent(report.pass_rate.human.estimate),
                  n: report.pass_rate.human.n,
                  low: formatPercent(report.pass_rate.human.ci[0]),
                  high: formatPercent(report.pass_rate.human.ci[1]),
                })}
              </li>
            )}
          </ul>
          {report.warnings.length > 0 && (
            <ul className="muted">
              {report.warnings.map((warning) => (
                <li key={warning.code}>{say(warning)}</li>
              ))}
            </ul>
          )}
          <button
            type="button"
            aria-expanded={tableShown}
            aria-controls={`${id}-table`}
            onClick={() => setTableShown(!tableShown)}
          >
            {tableShown ? t("common.hideTable") : t("common.showTable")}
          </button>
          <div id={`${id}-table`} className={tableShown ? undefined : "visually-hidden"}>
            <div className="table-scroll">
              <table data-testid="calibration-table">
                <caption>{t("calib.figures")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("calib.figure")}</th>
                    <th scope="col">
                      {t("calib.ofJudge")} ({report.judge})
                    </th>
                    <th scope="col">
                      {t("calib.ofBaseline")}
                      {report.baseline ? ` (${report.baseline.constant})` : ""}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {figureRows(report).map((row) => (
                    <tr key={row.key}>
                      <th scope="row">{t(row.key, row.values)}</th>
                      <td>{row.judge}</td>
                      <td>{row.baseline}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
          {report.reviewers.length > 0 && (
            <div className="table-scroll">
              <table data-testid="calibration-reviewers">
                <caption>{t("calib.reviewers")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("queue.reviewer")}</th>
                    <th scope="col">n</th>
                    <th scope="col">{t("calib.mae")}</th>
                    <th scope="col">
                      {t("calib.within", { tolerance: report.options.tolerance })}
                    </th>
                    <th scope="col">{t("calib.kappa")}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.reviewers.map((r) => (
                    <tr key={r.reviewer}>
                      <th scope="row">{r.reviewer}</th>
                      <td>{r.scores?.n ?? r.pass_fail?.n ?? 0}</td>
                      <td>{r.scores?.mae == null ? "—" : r.scores.mae.toFixed(2)}</td>
                      <td>
                        {r.scores?.within_1 == null
                          ? "—"
                          : `${Math.round(r.scores.within_1 * 100)}%`}
                      </td>
                      <td>
                        {(r.scores?.kappa_quadratic ?? r.pass_fail?.kappa) == null
                          ? "—"
                          : (r.scores?.kappa_quadratic ?? r.pass_fail?.kappa ?? 0).toFixed(2)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
