import type { EvaluationSummary } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";

const PARTS = ["overall", "retriever", "generator"] as const;

/** The run's RAGChecker metrics, one table per claims judge that scored answers (issue 26 §3). */
export function ClaimMetricsSummary({ summary }: { summary: EvaluationSummary }) {
  const { t } = useI18n();
  return (
    <>
      {(["claims", "claims_offline"] as const).map((judge) => {
        const block = summary.judges[judge];
        const report = block?.claim_metrics;
        if (!report) return null;
        return (
          <div key={judge} data-testid="claim-metrics" data-judge={judge}>
            <h3>
              {t("claims.metricsHeading")}{" "}
              <span className="muted">· {t(`compare.judge.${judge}` as MessageKey)}</span>
            </h3>
            <p className="muted" style={{ margin: 0 }}>
              {t("claims.metricsNote")}
              {block.approximate && <> {t("claims.approximate")}</>}
            </p>
            <table>
              <tbody>
                {PARTS.flatMap((part) =>
                  Object.entries(report[part]).map(([metric, value]) => (
                    <tr key={`${part}.${metric}`} data-metric={metric}>
                      <th scope="row">
                        {t(`claims.part.${part}` as MessageKey)} ·{" "}
                        {t(`claims.metric.${metric}` as MessageKey)}
                      </th>
                      <td>{value.toFixed(1)}</td>
                    </tr>
                  )),
                )}
              </tbody>
            </table>
          </div>
        );
      })}
    </>
  );
}
