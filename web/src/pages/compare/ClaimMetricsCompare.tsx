import type { EvaluationSummary } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";

type ClaimReport = NonNullable<NonNullable<EvaluationSummary["judges"]["claims"]>["claim_metrics"]>;

const PARTS = ["overall", "retriever", "generator"] as const;
/** Metrics where less is better: a rise is a regression. */
const LOWER_IS_BETTER = new Set([
  "noise_sensitivity_in_relevant",
  "noise_sensitivity_in_irrelevant",
  "hallucination",
]);

/**
 * The claims judges' RAGChecker metrics of two runs side by side (issue 26 §3), one table per
 * claims judge either run has; nothing when neither ran one.
 */
export function ClaimMetricsCompare({
  base,
  head,
}: {
  base: EvaluationSummary;
  head: EvaluationSummary;
}) {
  const { t } = useI18n();
  const judges = (["claims", "claims_offline"] as const).filter(
    (judge) => base.judges[judge]?.claim_metrics || head.judges[judge]?.claim_metrics,
  );
  if (judges.length === 0) return null;
  return (
    <>
      {judges.map((judge) => {
        const a = base.judges[judge]?.claim_metrics ?? null;
        const b = head.judges[judge]?.claim_metrics ?? null;
        const approximate = base.judges[judge]?.approximate ?? head.judges[judge]?.approximate;
        const rows = PARTS.flatMap((part) =>
          Object.keys((a ?? b)?.[part] ?? {}).map((metric) => ({ part, metric })),
        );
        const value = (report: ClaimReport | null, part: string, metric: string) =>
          (report?.[part as keyof ClaimReport] as Record<string, number> | undefined)?.[metric];
        return (
          <div key={judge} className="table-scroll" data-testid="compare-claims" data-judge={judge}>
            <h2>
              {t("claims.compareHeading", { judge: t(`compare.judge.${judge}` as MessageKey) })}
            </h2>
            {approximate && <p className="muted">{t("claims.approximate")}</p>}
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("claims.metric")}</th>
                  <th scope="col">A</th>
                  <th scope="col">B</th>
                  <th scope="col">{t("compare.delta")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map(({ part, metric }) => {
                  const before = value(a, part, metric);
                  const after = value(b, part, metric);
                  const delta =
                    before === undefined || after === undefined
                      ? null
                      : Math.round((after - before) * 10) / 10;
                  const worse =
                    delta !== null && (LOWER_IS_BETTER.has(metric) ? delta > 0 : delta < 0);
                  const better =
                    delta !== null && (LOWER_IS_BETTER.has(metric) ? delta < 0 : delta > 0);
                  return (
                    <tr
                      key={`${part}.${metric}`}
                      data-testid="compare-claim-row"
                      data-metric={metric}
                    >
                      <td>
                        {t(`claims.part.${part}` as MessageKey)} ·{" "}
                        {t(`claims.metric.${metric}` as MessageKey)}
                        {LOWER_IS_BETTER.has(metric) && (
                          <span className="muted"> ({t("claims.lowerBetter")})</span>
                        )}
                      </td>
                      <td>{before === undefined ? "—" : before.toFixed(1)}</td>
                      <td>{after === undefined ? "—" : after.toFixed(1)}</td>
                      <td className={worse ? "delta-neg" : better ? "delta-pos" : undefined}>
                        {delta === null
                          ? "—"
                          : `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(delta).toFixed(1)}`}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        );
      })}
    </>
  );
}
