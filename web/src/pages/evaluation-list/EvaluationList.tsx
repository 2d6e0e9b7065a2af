import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useCan } from "../../api/session";
import { Fragment, useState } from "react";
import { EVALUATION_STATUSES, type EvaluationListItem } from "../../api/types";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate, formatPercent, formatScore } from "../../components/format";
import { ProgressBar } from "../../components/ProgressBar";
import { shownRunStatus } from "../../components/run-outcome";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";
import { useQuestionSets } from "../../api/queries";
import { comparePair } from "./compare-pair";
import { useEvaluations, useRunAction } from "./queries";
import { actionsFor, type RunAction } from "./run-actions";
import { BotName } from "../../components/BotName";
import { groupRuns } from "./run-groups";

const ACTION_LABEL: Record<RunAction, MessageKey> = {
  pause: "list.pause",
  resume: "list.resume",
  cancel: "list.cancel",
  retry: "list.retry",
  delete: "list.delete",
};

/** Seed 003's EvaluationList: every run with its status, progress and key numbers. */
/** The judges a run's configuration snapshot names (the snapshot is open-ended JSON). */
function judgesOf(config: Record<string, unknown>): string[] {
  const judges = config.judges;
  return Array.isArray(judges) ? judges.filter((j): j is string => typeof j === "string") : [];
}

export function EvaluationList() {
  const { t, language } = useI18n();
  const search = useSearch({ from: "/evaluations/list" });
  const navigate = useNavigate({ from: "/evaluations/list" });
  const runs = useEvaluations();
  const sets = useQuestionSets();
  const action = useRunAction();
  const writes = useCan("write");
  const [selected, setSelected] = useState<string[]>([]);
  const setName = new Map((sets.data ?? []).map((s) => [s.id, s.name]));
  const visible = (runs.data ?? []).filter((r) => !search.status || r.status === search.status);
  const groups = groupRuns(visible);
  const pair = comparePair(selected.flatMap((id) => (runs.data ?? []).filter((r) => r.id === id)));

  const run = (evaluation: EvaluationListItem, what: RunAction) => {
    if (what === "delete" && !window.confirm(t("list.confirmDelete", { name: evaluation.name })))
      return;
    action.mutate({ id: evaluation.id, action: what });
  };
  const toggle = (id: string) =>
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id].slice(-2)));

  const row = (e: EvaluationListItem) => (
    <tr key={e.id} data-testid="evaluation-row" data-status={e.status}>
      <td>
        <input
          type="checkbox"
          checked={selected.includes(e.id)}
          onChange={() => toggle(e.id)}
          aria-label={t("list.select", { name: e.name })}
        />
      </td>
      <td>
        <Link to="/evaluations/$evalId" params={{ evalId: e.id }}>
          {e.name}
        </Link>
        {e.arena && (
          <div className="muted" style={{ fontSize: "0.85rem" }} data-testid="arena-run">
            {t("list.arenaContestant", { name: e.arena.contestant })}
          </div>
        )}
        {e.status_reason && (
          <div className="error-text" style={{ fontSize: "0.85rem" }}>
            {e.status_reason}
          </div>
        )}
      </td>
      <td>
        <StatusBadge status={shownRunStatus(e)} />
      </td>
      <td>
        <ProgressBar percent={e.progress.percent} label={`${e.name}: ${t("list.progress")}`} />
        <span className="muted" style={{ fontSize: "0.8rem" }}>
          {e.progress.completed}/{e.progress.total}
        </span>
      </td>
      <td>
        {e.question_set_id ? (
          <Link to="/evaluations/question-sets/$qsId" params={{ qsId: e.question_set_id }}>
            {setName.get(e.question_set_id) ?? e.question_set_id.slice(0, 8)}
          </Link>
        ) : (
          "—"
        )}
      </td>
      <td data-testid="run-bot">
        <BotName run={e} />
      </td>
      <td>
        {judgesOf(e.config).join(", ")} <span className="muted">({e.judge_llm_model_id})</span>
      </td>
      <td>{formatScore(e.average_score)}</td>
      <td>{formatPercent(e.pass_rate)}</td>
      <td>{t("list.errorsCell", { bot: e.bot_error_count, judge: e.judge_error_count })}</td>
      <td>{formatDate(e.gmt_created, language)}</td>
      <td>
        <div className="row" style={{ gap: "0.25rem" }}>
          {(writes ? actionsFor(e.status, e.bot_error_count + e.judge_error_count) : []).map(
            (a) => (
              <button
                key={a}
                type="button"
                className={a === "delete" ? "danger" : undefined}
                disabled={action.isPending}
                onClick={() => run(e, a)}
                aria-label={`${t(ACTION_LABEL[a])}: ${e.name}`}
              >
                {t(ACTION_LABEL[a])}
              </button>
            ),
          )}
        </div>
      </td>
    </tr>
  );

  return (
    <section aria-labelledby="list-title">
      <div className="row" style={{ justifyContent: "space-between" }}>
        <h1 id="list-title">{t("list.title")}</h1>
        <div className="row">
          <label>
            {t("list.filterStatus")}
            <select
              value={search.status ?? ""}
              onChange={(e) =>
                void navigate({
                  search: e.target.value
                    ? { status: e.target.value as EvaluationListItem["status"] }
                    : {},
                })
              }
            >
              <option value="">{t("common.all")}</option>
              {EVALUATION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`status.${s}` as MessageKey)}
                </option>
              ))}
            </select>
          </label>
          {pair ? (
            <Link className="button" to="/evaluations/compare" search={pair}>
              {t("list.compareSelected")}
            </Link>
          ) : (
            <button type="button" disabled>
              {t("list.compareSelected")}
            </button>
          )}
          {writes && (
            <Link className="button primary" to="/evaluations/new">
              {t("nav.new")}
            </Link>
          )}
        </div>
      </div>
      <ErrorNote error={action.error} />
      <ErrorNote error={runs.error} />
      {runs.isPending && <p>{t("common.loading")}</p>}
      {runs.data && visible.length === 0 && <p className="muted">{t("list.empty")}</p>}
      {visible.length > 0 && (
        <div className="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">
                  <span className="visually-hidden">{t("list.compareSelected")}</span>
                </th>
                <th scope="col">{t("list.name")}</th>
                <th scope="col">{t("list.status")}</th>
                <th scope="col">{t("list.progress")}</th>
                <th scope="col">{t("list.questionSet")}</th>
                <th scope="col">{t("list.bot")}</th>
                <th scope="col">{t("list.judges")}</th>
                <th scope="col">{t("list.score")}</th>
                <th scope="col">{t("list.passRate")}</th>
                <th scope="col">{t("list.errors")}</th>
                <th scope="col">{t("list.created")}</th>
                <th scope="col">{t("list.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {groups.own.map((e) => row(e))}
              {groups.arenas.map((group) => (
                <Fragment key={group.id}>
                  <tr className="group-row" data-testid="arena-run-group">
                    <th scope="rowgroup" colSpan={12}>
                      {t("list.arenaGroup")}{" "}
                      <Link to="/arenas/$arenaId" params={{ arenaId: group.id }}>
                        {group.name}
                      </Link>
                    </th>
                  </tr>
                  {group.runs.map((e) => row(e))}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
