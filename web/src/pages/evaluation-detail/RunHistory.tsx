import { formatDate, formatUsd } from "../../components/format";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { useRunHistory } from "./queries";

/** What the server records about a run (its audit trail), in words. */
const ACTION_WORDS: Record<string, MessageKey> = {
  "evaluation.start": "audit.evaluation.start",
  "evaluation.pause": "audit.evaluation.pause",
  "evaluation.resume": "audit.evaluation.resume",
  "evaluation.cancel": "audit.evaluation.cancel",
  "evaluation.retry": "audit.evaluation.retry",
  "evaluation.delete": "audit.evaluation.delete",
  "label.change": "audit.label.change",
  "label.import": "audit.label.import",
  "label.delete": "audit.label.delete",
};

/** The run's history: who started, paused, resumed, cancelled, retried it or changed its labels. */
export function RunHistory({ evaluationId, status }: { evaluationId: string; status?: string }) {
  const { t, language } = useI18n();
  const history = useRunHistory(evaluationId, status);
  const items = history.data ?? [];
  return (
    <section aria-labelledby="history-title" data-testid="run-history">
      <h2 id="history-title">{t("history.title")}</h2>
      <ErrorNote error={history.error} />
      {history.data && items.length === 0 && <p className="muted">{t("history.none")}</p>}
      {items.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("history.who")}</th>
                <th scope="col">{t("history.what")}</th>
                <th scope="col">{t("history.when")}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((event) => {
                const words = ACTION_WORDS[event.action];
                const written = event.detail.written;
                // A resume that changed the cost limit says what it became.
                const limit = event.detail.max_cost_usd;
                const what =
                  event.action === "evaluation.resume" && limit !== undefined
                    ? typeof limit === "number"
                      ? t("audit.evaluation.resumeLimit", { limit: formatUsd(limit) })
                      : t("audit.evaluation.resumeNoLimit")
                    : words
                      ? t(words, { written: typeof written === "number" ? written : "?" })
                      : event.action;
                return (
                  <tr key={event.id} data-testid="history-row" data-action={event.action}>
                    <td>{event.user_name ?? t("history.someone")}</td>
                    <td>{what}</td>
                    <td>{formatDate(event.created_at, language)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
