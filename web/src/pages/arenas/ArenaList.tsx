import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCan } from "../../api/session";
import { Link } from "@tanstack/react-router";
import { api, must } from "../../api/client";
import { useQuestionSets } from "../../api/queries";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { ArenaStatus } from "./ArenaStatus";
import { arenasKey, useArenas } from "./queries";
import { winnerOf } from "./winner";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ListTable } from "../../components/ListTable";

/** `/arenas`: every arena with its set, contestants, judge, time and status. */
export function ArenaList() {
  const { t, language } = useI18n();
  const arenas = useArenas();
  const sets = useQuestionSets();
  const setName = new Map((sets.data ?? []).map((s) => [s.id, s.name]));
  const rows = arenas.data ?? [];
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: string) =>
      must(api.DELETE("/api/v1/arenas/{id}", { params: { path: { id } } })),
    // The runs it started go with it, so the run list changes too.
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: arenasKey }),
        client.invalidateQueries({ queryKey: ["evaluations"] }),
      ]),
  });
  const writes = useCan("write");
  return (
    <section aria-labelledby="arenas-title">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1 id="arenas-title">{t("arena.listTitle")}</h1>
        {writes && (
          <Link className="button primary" to="/arenas/new">
            {t("arena.new")}
          </Link>
        )}
      </div>
      <ErrorNote error={arenas.error} />
      <ErrorNote error={remove.error} />
      {arenas.isPending && <p>{t("common.loading")}</p>}
      <ListTable
        items={arenas.data && rows}
        empty={t("arena.empty")}
        columns={[
          t("arena.name"),
          t("arena.questionSet"),
          t("arena.contestants"),
          t("arena.judge"),
          t("arena.created"),
          t("arena.status"),
          t("arena.winner"),
        ]}
        actions={t("arena.actions")}
        row={(a) => (
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
              <Link to="/evaluations/question-sets/$qsId" params={{ qsId: a.question_set_id }}>
                {setName.get(a.question_set_id) ?? a.question_set_id.slice(0, 8)}
              </Link>
              {a.question_set_version !== null && (
                <span className="muted"> {t("versions.label", { n: a.question_set_version })}</span>
              )}
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
            <td data-testid="arena-winner">
              {(() => {
                const winner = winnerOf(a);
                if (!winner) return "—";
                return (
                  <>
                    <strong>{winner.name}</strong>
                    {winner.level && (
                      <div className="muted" style={{ fontSize: "0.85rem" }}>
                        {t("arena.level", { name: winner.level })}
                      </div>
                    )}
                  </>
                );
              })()}
            </td>
            <td>
              {writes && (
                <ConfirmButton
                  danger
                  label={t("arena.deleteNamed", { name: a.name })}
                  question={t("arena.confirmDelete", { name: a.name })}
                  disabled={remove.isPending && remove.variables === a.id}
                  onConfirm={() => remove.mutate(a.id)}
                >
                  {t("list.delete")}
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
      />
    </section>
  );
}
