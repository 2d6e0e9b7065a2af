import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { AnswerFiltersBar } from "./AnswerFiltersBar";
import type { AnswerFilters } from "./filters";
import { useAnswers } from "./queries";
import { VerdictBadge } from "./VerdictBadge";

/** `/production/answers`: the answers the service gave, newest first, filtered by the URL. */
export function AnswerList() {
  const { t, language } = useI18n();
  const filters = useSearch({ from: "/production/answers" });
  const navigate = useNavigate({ from: "/production/answers" });
  // Pages back in time: the cursors of the pages seen, so "newer" returns without a refetch.
  const [cursors, setCursors] = useState<string[]>([]);
  const answers = useAnswers(filters, cursors.at(-1));
  const rows = answers.data?.items ?? [];

  const applyFilters = (next: AnswerFilters) => {
    setCursors([]);
    void navigate({ search: next });
  };

  return (
    <section aria-labelledby="answers-title">
      <h1 id="answers-title">{t("prod.listTitle")}</h1>
      <p className="muted">{t("prod.listIntro")}</p>
      <AnswerFiltersBar filters={filters} onChange={applyFilters} />
      <ErrorNote error={answers.error} />
      {answers.isPending && <p>{t("common.loading")}</p>}
      {answers.data && rows.length === 0 && <p className="muted">{t("prod.empty")}</p>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("prod.col.question")}</th>
                <th scope="col">{t("prod.col.verdict")}</th>
                <th scope="col">{t("prod.col.received")}</th>
                <th scope="col">{t("prod.col.service")}</th>
                <th scope="col">{t("prod.col.model")}</th>
                <th scope="col">{t("prod.col.feedback")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.id} data-testid="answer-row" data-message={a.message_id}>
                  <td>
                    <Link to="/production/answers/$answerId" params={{ answerId: a.id }}>
                      {a.query ?? a.answer.slice(0, 80)}
                    </Link>
                  </td>
                  <td>
                    <VerdictBadge verdict={a.gate.status} />
                  </td>
                  <td>{formatDate(a.received_at, language)}</td>
                  <td>{a.service ?? t("common.none")}</td>
                  <td>{a.model ?? t("common.none")}</td>
                  <td>
                    {a.feedback.count === 0
                      ? t("prod.noFeedback")
                      : t("prod.feedbackCounts", { ...a.feedback })}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <div className="row" style={{ gap: "0.5rem", marginTop: "0.75rem" }}>
        {cursors.length > 0 && (
          <button type="button" onClick={() => setCursors(cursors.slice(0, -1))}>
            {t("common.back")}
          </button>
        )}
        {answers.data?.next_before && (
          <button
            type="button"
            onClick={() => setCursors([...cursors, answers.data.next_before ?? ""])}
          >
            {t("prod.more")}
          </button>
        )}
      </div>
    </section>
  );
}
