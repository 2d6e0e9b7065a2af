import type { EvaluationResult } from "../../api/types";
import { RetrievalStats } from "../../components/RetrievalStats";
import { relevantItem } from "../../components/retrieval-metrics";
import { useI18n } from "../../i18n/i18n";

type Retrieval = NonNullable<EvaluationResult["retrieval"]>;

/**
 * One result's retrieval: the metrics against the question's relevant items (which were found, at
 * which place, and which were not), and the retrieved sources with their documents' own ids.
 */
export function ResultRetrieval({ result }: { result: EvaluationResult }) {
  const { t } = useI18n();
  const retrieval = result.retrieval;
  const sources = result.rag_answer_sources ?? [];
  if (!retrieval && sources.length === 0) return null;
  const name = (id: string, by: Retrieval["by"]) => {
    const item = relevantItem(id, by);
    return item.kind === "passage" ? t("retrieval.passage", { n: item.n }) : item.id;
  };
  const relevantRanks = new Set(retrieval?.matched.map((m) => m.rank) ?? []);
  // Ranks count distinct sources (a repeated chunk takes no place), as the metrics do.
  const seen = new Set<string>();
  const ranked = sources.flatMap((source) => {
    if (seen.has(source.node_id)) return [];
    seen.add(source.node_id);
    return [{ source, rank: seen.size }];
  });
  return (
    <section data-testid="result-retrieval">
      <h3>{t("retrieval.title")}</h3>
      {retrieval && (
        <>
          <p className="muted" style={{ marginTop: 0 }}>
            {t(retrieval.by === "ids" ? "retrieval.byIds" : "retrieval.byContexts", {
              n: retrieval.relevant,
            })}
          </p>
          <RetrievalStats values={retrieval} k={retrieval.k} testId="result-retrieval-metric" />
          <p data-testid="retrieval-found">
            <span className="muted">{t("retrieval.found")}: </span>
            {retrieval.matched.length === 0
              ? t("retrieval.none")
              : retrieval.matched
                  .map((m) =>
                    t("retrieval.foundAt", { id: name(m.id, retrieval.by), rank: m.rank }),
                  )
                  .join("; ")}
          </p>
          {retrieval.missing.length > 0 && (
            <p data-testid="retrieval-missing">
              <span className="muted">{t("retrieval.missing")}: </span>
              {retrieval.missing.map((id) => name(id, retrieval.by)).join("; ")}
            </p>
          )}
        </>
      )}
      {ranked.length > 0 && (
        <details>
          <summary>{t("retrieval.sources")}</summary>
          <ol style={{ margin: 0 }} data-testid="retrieval-sources">
            {ranked.map(({ source, rank }) => (
              <li key={source.node_id}>
                {source.title || source.source || source.node_id}
                {source.document_id && (
                  <span className="muted" data-testid="source-document-id">
                    {" "}
                    · {t("retrieval.document", { id: source.document_id })}
                  </span>
                )}
                {relevantRanks.has(rank) && (
                  <span className="badge ok" style={{ marginLeft: "0.5rem" }}>
                    {t("retrieval.relevant")}
                  </span>
                )}
              </li>
            ))}
          </ol>
        </details>
      )}
    </section>
  );
}
