import { useI18n } from "../../i18n/i18n";
import type { ClaimsDiagnosisView } from "./claims-verdict";

/** "passage 2 (nile.md)": a chunk by its position in the answer's sources, and its name. */
function usePassageName() {
  const { t } = useI18n();
  return (diagnosis: ClaimsDiagnosisView, n: number) => {
    const label = diagnosis.chunks[n - 1]?.label;
    return label ? `${t("claims.passage", { n })} (${label})` : t("claims.passage", { n });
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
}: {
  judge: string;
  diagnosis: ClaimsDiagnosisView;
}) {
  const { t } = useI18n();
  const passage = usePassageName();
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
                  : t("claims.missedInChunk", { n: passage(diagnosis, entry.chunk) })}
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
                  : t("claims.unsupportedFromChunk", { n: passage(diagnosis, entry.chunk) })}
                {entry.contradicts && <> · {t("claims.contradicts")}</>}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
