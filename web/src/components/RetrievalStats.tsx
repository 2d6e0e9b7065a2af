import { formatScore } from "./format";
import { useI18n } from "../i18n/i18n";
import {
  metricHelp,
  metricLabel,
  RETRIEVAL_METRICS,
  type RetrievalMetric,
} from "./retrieval-metrics";

/** The five metrics as stat tiles, each named with its cutoff and explained on hover. */
export function RetrievalStats({
  values,
  k,
  testId,
}: {
  values: Record<RetrievalMetric, number>;
  k: number | null;
  testId: string;
}) {
  const { t } = useI18n();
  const at = k === null ? "k" : String(k);
  return (
    <div className="grid" data-testid={testId}>
      {RETRIEVAL_METRICS.map((metric) => (
        <div className="stat" key={metric} title={t(metricHelp(metric), { k: at })}>
          <div className="label">{t(metricLabel(metric), { k: at })}</div>
          <div className="value" data-testid={`${testId}-${metric}`}>
            {formatScore(values[metric])}
          </div>
        </div>
      ))}
    </div>
  );
}
