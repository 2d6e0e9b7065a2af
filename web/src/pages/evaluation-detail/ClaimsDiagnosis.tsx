import type { EvaluationResult } from "../../api/types";
import { useI18n } from "../../i18n/i18n";
import type { ClaimsDiagnosisView } from "./claims-verdict";

type Sources = NonNullable<EvaluationResult["rag_answer_sources"]>;

/**
 * "passage 2 (Harbour history)": a chunk by its position among the answer's sources (the order
 * the judge saw them in), and the title a person knows it by, when the source has one.
 */
function usePassageName(sources: Sources) {
  const { t } = useI18n();
  return (n: number) => {
    const title = sources[n - 1]?.title;
    return title ? `${t("claims.passage", { n })} (${title})` : t("claims.passage", { n });
  };
}

/**
 * A claims judge's diagnosis of one answer (issue 26 §3): the ground truth's claims the answer
 * missed, each with the passage that held it (the generator left it out) or none (the retriever
 * missed it); the answer's claims the ground truth does not back, each with the passage it was
 * taken from or none (invented).
 */
export function ClaimsDiagnosis({
  judge,
  diagnosis,
  sources,
}: {
  judge: string;
  diagnosis: ClaimsDiagnosisView;
  sources: Sources;
}) {
  const { t } = useI18n();
  const passage = usePassageName(sources);
  return (
    <section data-testid="claims-diagnosis" data-judge={judge}>
      <h3>
        {t("claims.heading")} <span className="muted">· {judge}</span>
      </h3>
      {diagnosis.approximate && (
        <p className="muted" data-testid="claims-approximate" style={{ margin: 0 }}>
          {t("claims.approximate")}
        </p>
      )}
      <h4>{t("claims.missed")}</h4>
      {diagnosis.missed.length === 0 ? (
        <p className="muted">{t("claims.noneMissed")}</p>
      ) : (
        <ul style={{ margin: 0 }}>
          {diagnosis.missed.map((entry, i) => (
            <li key={i} data-testid="claim-missed">
              {entry.claim}{" "}
              <span className="muted">
                —{" "}
                {entry.chunk === null
                  ? t("claims.missedNowhere")
                  : t("claims.missedInChunk", { passage: passage(entry.chunk) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h4>{t("claims.unsupported")}</h4>
      {diagnosis.unsupported.length === 0 ? (
        <p className="muted">{t("claims.noneUnsupported")}</p>
      ) : (
        <ul style={{ margin: 0 }}>
          {diagnosis.unsupported.map((entry, i) => (
            <li key={i} data-testid="claim-unsupported">
              {entry.claim}{" "}
              <span className="muted">
                —{" "}
                {entry.chunk === null
                  ? t("claims.unsupportedNowhere")
                  : t("claims.unsupportedFromChunk", { passage: passage(entry.chunk) })}
                {entry.contradicts && <> · {t("claims.contradicts")}</>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
