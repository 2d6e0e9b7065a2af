import { Link } from "@tanstack/react-router";
import { useQuestionSets } from "../../api/queries";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { ArenaStatus } from "./ArenaStatus";
import { useArenas } from "./queries";

/** `/arenas`: every arena with its set, contestants, judge, time and status. */
export function ArenaList() {
  const { t, language } = useI18n();
  const arenas = useArenas();
  const sets = useQuestionSets();
  const setName = new Map((sets.data ?? []).map((s) => [s.id, s.name]));
  const rows = arenas.data ?? [];

  return (
    <section aria-labelledby="arenas-title">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1 id="arenas-title">{t("arena.listTitle")}</h1>
        <Link className="button primary" to="/arenas/new">
          {t("arena.new")}
        </Link>
      </div>
      <ErrorNote error={arenas.error} />
      {arenas.isPending && <p>{t("common.loading")}</p>}
      {arenas.data && rows.length === 0 && <p className="muted">{t("arena.empty")}</p>}
      {rows.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t("arena.name")}</th>
                <th scope="col">{t("arena.questionSet")}</th>
                <th scope="col">{t("arena.contestants")}</th>
                <th scope="col">{t("arena.judge")}</th>
                <th scope="col">{t("arena.created")}</th>
                <th scope="col">{t("arena.status")}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((a) => (
                <tr key={a.id} data-testid="arena-row" data-status={a.status}>
                  <td>
                    <Link to="/arenas/$arenaId" params={{ arenaId: a.id }}>
                      {a.name}
                    </Link>
                    {a.status_reason && (
                      <div className="error-text" style={{ fontSize: "0.85rem" }}>
                        {a.status_reason}
                      </div>
                    )}
                  </td>
                  <td>
                    <Link
                      to="/evaluations/question-sets/$qsId"
                      params={{ qsId: a.question_set_id }}
                    >
                      {setName.get(a.question_set_id) ?? a.question_set_id.slice(0, 8)}
                    </Link>
                  </td>
                  <td>{a.config.contestants.map((c) => c.name).join(", ")}</td>
                  <td>
                    {a.config.judge}
                    {a.config.judge_model ? (
                      <span className="muted"> ({a.config.judge_model})</span>
                    ) : null}
                  </td>
                  <td>{formatDate(a.gmt_created, language)}</td>
                  <td>
                    <ArenaStatus status={a.status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
