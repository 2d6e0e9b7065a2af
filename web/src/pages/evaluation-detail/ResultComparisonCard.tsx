import { memo } from "react";
import type { EvaluationResultListItem } from "../../api/types";
import { ErrorNote } from "../../components/ErrorNote";
import { CostText } from "../../components/CostText";
import { formatMs, formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import { questionTypeName } from "../../i18n/name-strings";
import { useResult } from "./queries";
import { ResultDetail } from "./ResultDetail";

/**
 * Seed 003's ResultComparisonCard. Closed, it shows what the results list carries: the question,
 * the start of the answer, status, gate verdict, score, pass and error. Opened, it fetches the
 * result in full and shows the ground truth, the answer with its citations (each opens the cited
 * passage), every judge, the failing checks and the loop trace.
 */
export const ResultComparisonCard = memo(function ResultComparisonCard({
  evaluationId,
  item,
  open,
  onToggle,
}: {
  evaluationId: string;
  item: EvaluationResultListItem;
  open: boolean;
  onToggle: (resultId: string) => void;
}) {
  const { t } = useI18n();
  const bodyId = `result-${item.id}`;
  return (
    <article
      className="card"
      data-testid="result-card"
      aria-label={`${item.position + 1}. ${item.question_text}`}
    >
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <div className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
          <strong>#{item.position + 1}</strong>
          <StatusBadge status={item.status} />
          <span className="muted" data-testid="card-question-type">
            {questionTypeName(item.question_type, t)}
          </span>
          {item.gate_status && (
            <span data-testid="card-gate">
              {t("card.gate")}: <StatusBadge status={item.gate_status} />
            </span>
          )}
        </div>
        <div className="row" style={{ alignItems: "center", gap: "0.5rem" }}>
          {item.status === "SCORED" ? (
            <strong data-testid="card-score">
              {t("card.compareScore", { score: formatScore(item.score) })}
            </strong>
          ) : (
            <span className="muted">{t("detail.notScored")}</span>
          )}
          {item.passed !== null && (
            <span className={`badge ${item.passed ? "ok" : "bad"}`}>
              {item.passed ? t("card.passed") : t("card.failed")}
            </span>
          )}
          {item.latency_ms !== null && (
            <span className="muted">{t("card.latency", { ms: formatMs(item.latency_ms) })}</span>
          )}
          {item.cost_usd !== null && (
            <span className="muted" data-testid="card-cost">
              {item.llm_called ? (
                <>
                  {t("cost.card")}{" "}
                  <CostText
                    cost={{ cost_usd: item.cost_usd, price_unknown: item.cost_price_unknown }}
                  />
                </>
              ) : (
                <CostText cost={null} />
              )}
            </span>
          )}
          <button
            type="button"
            aria-expanded={open}
            aria-controls={bodyId}
            onClick={() => onToggle(item.id)}
          >
            {open ? t("card.hideDetails") : t("card.showDetails")}
          </button>
        </div>
      </div>
      {item.error &&
        (item.status === "BOT_ERROR" && item.error_kind ? (
          // The kind in the reader's words; the bot's own text (often English) behind a toggle.
          <div className="notice bad" data-testid="card-bot-error">
            <strong>{t("status.BOT_ERROR")}:</strong> {t(`card.botError.${item.error_kind}`)}
            <details>
              <summary>{t("card.errorDetail")}</summary>
              <code style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{item.error}</code>
            </details>
          </div>
        ) : (
          <p className="notice bad">
            <strong>
              {item.status === "BOT_ERROR"
                ? t("status.BOT_ERROR")
                : item.status === "JUDGE_ERROR"
                  ? t("status.JUDGE_ERROR")
                  : t("card.error")}
              :
            </strong>{" "}
            {item.error}
          </p>
        ))}
      {item.passed === false && item.gate_status !== null && item.gate_status !== "fail" && (
        // "Gate: pass" beside "failed" is no contradiction: say why in one line.
        <p className="muted" data-testid="card-verdict" style={{ margin: 0 }}>
          {t("card.judgeFailedGatePassed")}
        </p>
      )}
      <p className="card-question">{item.question_text}</p>
      {!open &&
        (item.answer_excerpt === null ? (
          <p className="card-excerpt muted">{t("card.noAnswer")}</p>
        ) : (
          <p className="card-excerpt">
            <span className="muted">{t("card.answer")}: </span>
            {item.answer_excerpt}
            {item.answer_length !== null && item.answer_length > item.answer_excerpt.length && "…"}
          </p>
        ))}
      <div id={bodyId}>{open && <OpenedResult evaluationId={evaluationId} item={item} />}</div>
    </article>
  );
});

function OpenedResult({
  evaluationId,
  item,
}: {
  evaluationId: string;
  item: EvaluationResultListItem;
}) {
  const { t } = useI18n();
  const result = useResult(evaluationId, item);
  if (result.error) return <ErrorNote error={result.error} />;
  if (!result.data)
    return (
      <p className="muted" role="status">
        {t("common.loading")}
      </p>
    );
  return <ResultDetail result={result.data} />;
}
