import type { EvaluationSummary } from "../../api/types";
import { RetrievalStats } from "../../components/RetrievalStats";
import { useI18n } from "../../i18n/i18n";

/** The run's mean retrieval metrics, when some of its questions name their relevant documents. */
export function RetrievalSummary({ summary }: { summary: EvaluationSummary }) {
  const { t } = useI18n();
  const retrieval = summary.retrieval;
  if (!retrieval) return null;
  return (
    <section aria-labelledby="retrieval-title" data-testid="retrieval-summary">
      <h3 id="retrieval-title">{t("retrieval.title")}</h3>
      <p className="muted" style={{ marginTop: 0 }}>
        {retrieval.k === null
          ? t("retrieval.summaryNoteMixedK", { n: retrieval.count })
          : t("retrieval.summaryNote", { n: retrieval.count, k: retrieval.k })}
      </p>
      <RetrievalStats values={retrieval.means} k={retrieval.k} testId="retrieval-mean" />
    </section>
  );
}
