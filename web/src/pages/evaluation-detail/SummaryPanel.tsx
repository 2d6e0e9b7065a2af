import type { EvaluationDetail } from "../../api/types";
import { formatMs, formatPercent, formatScore, formatUsd } from "../../components/format";
import { ProgressBar } from "../../components/ProgressBar";
import { everyResultFailed, shownRunStatus } from "../../components/run-outcome";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import { RetrievalSummary } from "./RetrievalSummary";
import { ClaimMetricsSummary } from "./ClaimMetricsSummary";

/** The run at a glance. Bot and judge errors are counted apart and never enter the averages. */
export function SummaryPanel({ evaluation }: { evaluation: EvaluationDetail }) {
  const { t } = useI18n();
  const s = evaluation.summary;
  const gate = Object.entries(s.gate);
  return (
    <section aria-labelledby="summary-title" data-testid="summary-panel">
      <h2 id="summary-title">{t("detail.summary")}</h2>
      <div className="row" style={{ alignItems: "center", marginBottom: "0.75rem" }}>
        <StatusBadge status={shownRunStatus(evaluation)} />
        <ProgressBar percent={evaluation.progress.percent} label={t("list.progress")} />
        <span className="muted" data-testid="progress-count">
          {evaluation.progress.completed}/{evaluation.progress.total}
        </span>
        {evaluation.cost_limit_reached && evaluation.max_cost_usd !== null ? (
          <span className="error-text" role="status" data-testid="cost-limit-reached">
            {t("cost.limitReached", { limit: formatUsd(evaluation.max_cost_usd) })}
          </span>
        ) : (
          evaluation.status_reason && (
            <span className="error-text">
              {t("detail.reason", { reason: evaluation.status_reason })}
            </span>
          )
        )}
      </div>
      {everyResultFailed(evaluation) && (
        <p className="notice bad" role="alert" data-testid="run-failed">
          {t("outcome.runFailed", {
            errors: [
              ...(s.errors.bot > 0 ? [t("outcome.botErrors", { n: s.errors.bot })] : []),
              ...(s.errors.judge > 0 ? [t("outcome.judgeErrors", { n: s.errors.judge })] : []),
            ].join(", "),
          })}
        </p>
      )}
      <div className="grid">
        <div className="stat">
          <div className="label">{t("detail.score")}</div>
          <div className="value" data-testid="summary-score">
            {formatScore(s.average_score)}
          </div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.passRate")}</div>
          <div className="value">{formatPercent(s.pass_rate)}</div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.scored")}</div>
          <div className="value" data-testid="summary-scored">
            {s.scored} / {s.total}
          </div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.botErrors")}</div>
          <div className="value" data-testid="bot-errors">
            {s.errors.bot}
          </div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.judgeErrors")}</div>
          <div className="value" data-testid="judge-errors">
            {s.errors.judge}
          </div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.gate")}</div>
          <div className="value" style={{ fontSize: "1rem" }}>
            {gate.length === 0
              ? "—"
              : gate.map(([verdict, n]) => (
                  <span key={verdict} style={{ marginRight: "0.5rem" }}>
                    <StatusBadge status={verdict} /> {n}
                  </span>
                ))}
          </div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.latency")}</div>
          <div style={{ fontSize: "0.9rem" }}>
            {t("detail.latencyValue", {
              mean: formatMs(s.latency_ms.mean),
              p50: formatMs(s.latency_ms.p50),
              p95: formatMs(s.latency_ms.p95),
            })}
          </div>
        </div>
        <div className="stat">
          <div className="label">{t("detail.tokens")}</div>
          <div style={{ fontSize: "0.9rem" }}>
            {t("detail.tokensValue", {
              prompt: s.usage.prompt_tokens,
              completion: s.usage.completion_tokens,
              calls: s.usage.calls,
            })}
          </div>
        </div>
      </div>
      <RetrievalSummary summary={s} />
      <ClaimMetricsSummary summary={s} />
    </section>
  );
}
