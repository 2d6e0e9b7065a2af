import type { EvaluationSummary } from "../../api/types";
import { formatDelta, formatScore } from "../../components/format";
import { metricHelp, metricLabel, RETRIEVAL_METRICS } from "../../components/retrieval-metrics";
import { useI18n } from "../../i18n/i18n";

/** The two runs' mean retrieval metrics side by side, with B − A; nothing when neither has any. */
export function CompareRetrieval({
  base,
  head,
}: {
  base: EvaluationSummary;
  head: EvaluationSummary;
}) {
  const { t } = useI18n();
  const a = base.retrieval;
  const b = head.retrieval;
  if (!a && !b) return null;
  // Each run's own cutoff; when they differ the labels say k.
  const k = a && b && a.k !== b.k ? "k" : String((a ?? b)?.k ?? "k");
  return (
    <section aria-labelledby="compare-retrieval-title" data-testid="compare-retrieval">
      <h2 id="compare-retrieval-title">{t("retrieval.compareTitle")}</h2>
      {(!a || !b) && (
        <p className="muted">{t("retrieval.compareOnlyOne", { run: a ? "A" : "B" })}</p>
      )}
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("retrieval.compareMetric")}</th>
              <th scope="col">A</th>
              <th scope="col">B</th>
              <th scope="col">{t("compare.delta")}</th>
            </tr>
          </thead>
          <tbody>
            {RETRIEVAL_METRICS.map((metric) => {
              const before = a?.means[metric] ?? null;
              const after = b?.means[metric] ?? null;
              const delta = before !== null && after !== null ? after - before : null;
              return (
                <tr key={metric} data-testid={`compare-retrieval-${metric}`}>
                  <th scope="row" title={t(metricHelp(metric), { k })}>
                    {t(metricLabel(metric), { k })}
                  </th>
                  <td>{formatScore(before)}</td>
                  <td>{formatScore(after)}</td>
                  <td
                    className={
                      delta === null || delta === 0 ? "" : delta > 0 ? "delta-pos" : "delta-neg"
                    }
                  >
                    {formatDelta(delta)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
