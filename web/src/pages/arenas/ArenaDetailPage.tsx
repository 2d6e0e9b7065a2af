import { useMutation } from "@tanstack/react-query";
import { ArenaHumanVotes } from "../queues/ArenaHumanVotes";
import { SendToLabelling } from "../queues/SendToLabelling";
import { Link, useParams } from "@tanstack/react-router";
import { api } from "../../api/client";
import { saveAnswerAsFile } from "../../api/save-file";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate, formatPercent } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { judgeKindName } from "../../i18n/name-strings";
import { ArenaQuestions } from "./ArenaQuestions";
import { ArenaStatus } from "./ArenaStatus";
import { ArenaRadar, RatingsChart, WinMatrix } from "./ArenaCharts";
import { type ArenaResults, useArena } from "./queries";

const fixed = (x: number, digits = 1) => x.toFixed(digits);
// The generated types read the [low, high] tuples as number[].
const interval = (ci: readonly number[] | null | undefined, digits = 1) =>
  ci && ci.length === 2 ? `[${fixed(ci[0]!, digits)}, ${fixed(ci[1]!, digits)}]` : "—";
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;

/** `/arenas/{id}`: the stored arena, followed while a worker compares it. */
export function ArenaDetailPage() {
  const { t, say, language } = useI18n();
  const { arenaId } = useParams({ from: "/arenas/$arenaId" });
  const arena = useArena(arenaId);
  const a = arena.data;
  const report = useMutation({
    mutationFn: async (id: string) =>
      saveAnswerAsFile(
        await api.GET("/api/v1/arenas/{id}/report.html", {
          params: { path: { id } },
          parseAs: "blob",
        }),
        `arena-${id.slice(0, 8)}.html`,
      ),
  });

  return (
    <section aria-labelledby="arena-title">
      <ErrorNote error={arena.error ?? report.error} />
      {arena.isPending && <p>{t("common.loading")}</p>}
      {a && (
        <>
          <div className="row" style={{ justifyContent: "space-between" }}>
            <h1 id="arena-title">{a.name}</h1>
            <div className="row">
              <ArenaStatus status={a.status} />
              {a.status === "COMPLETED" && (
                <SendToLabelling source={{ kind: "arena", arena_id: a.id }} name={a.name} />
              )}
              {a.status === "COMPLETED" && (
                <a
                  className="button"
                  href={`/api/v1/arenas/${a.id}/report.html`}
                  download={`arena-${a.id.slice(0, 8)}.html`}
                  onClick={(event) => {
                    event.preventDefault();
                    report.mutate(a.id);
                  }}
                >
                  {t("arena.report")}
                </a>
              )}
            </div>
          </div>
          <p className="muted">
            {/* Each contestant is an evaluation run: its own page has its results and progress. */}
            {a.config.contestants.map((c) => (
              <span key={c.name}>
                <Link to="/evaluations/$evalId" params={{ evalId: c.evaluation_id }}>
                  {c.name}
                </Link>
                {" · "}
              </span>
            ))}
            {formatDate(a.gmt_created, language)}
            {" · "}
            <span data-testid="arena-question-set-version">
              {t("versions.runOn")}:{" "}
              <Link
                to="/evaluations/question-sets/$qsId"
                params={{ qsId: a.question_set_id }}
                search={a.question_set_version === null ? {} : { to: a.question_set_version }}
              >
                {a.question_set_version === null
                  ? t("versions.beforeVersions")
                  : t("versions.label", { n: a.question_set_version })}
              </Link>
            </span>
          </p>
          {a.status === "PENDING" && <p className="notice">{t("arena.queued")}</p>}
          {a.status === "RUNNING" && <p className="notice">{t("arena.running")}</p>}
          {a.status === "FAILED" && (
            <p className="notice bad" role="alert">
              {t("arena.failed", { reason: a.status_message ? say(a.status_message) : "—" })}
            </p>
          )}
          {a.results && <ArenaResultsView results={a.results} />}
          {a.status === "COMPLETED" && <ArenaHumanVotes arenaId={a.id} />}
          {a.status === "COMPLETED" && <ArenaQuestions arenaId={a.id} />}
        </>
      )}
    </section>
  );
}

function ArenaResultsView({ results: r }: { results: ArenaResults }) {
  const { t } = useI18n();
  const scoreBased = r.judge !== "pairwise";
  const lc = r.length_control;
  return (
    <>
      <p data-testid="arena-summary">
        {t("arena.summary", {
          questions: r.questions,
          judge: judgeKindName(r.judge, t),
          rounds: r.bootstrap.rounds,
          seed: r.bootstrap.seed,
        })}
      </p>
      <h2>{t("arena.ratings")}</h2>
      <div className="table-scroll">
        <table data-testid="ratings-table">
          <thead>
            <tr>
              <th scope="col">{t("arena.rank")}</th>
              <th scope="col">{t("arena.contestantCol")}</th>
              <th scope="col">{t("arena.rating")}</th>
              <th scope="col">{t("arena.ci")}</th>
              <th scope="col">{t("arena.lcRating")}</th>
              <th scope="col">{t("arena.lcCi")}</th>
              <th scope="col">{t("arena.winRate")}</th>
              <th scope="col">{t("arena.wins")}</th>
              <th scope="col">{t("arena.ties")}</th>
              <th scope="col">{t("arena.losses")}</th>
              <th scope="col">{t("arena.meanLength")}</th>
              <th scope="col">{t("arena.scored")}</th>
            </tr>
          </thead>
          <tbody>
            {r.contestants.map((c) => (
              <tr key={c.name} data-testid="rating-row">
                <td>{c.rank}</td>
                <th scope="row">{c.name}</th>
                <td>{fixed(c.rating)}</td>
                <td>{interval(c.ci)}</td>
                <td>{fixed(c.length_controlled.rating)}</td>
                <td>{interval(c.length_controlled.ci)}</td>
                <td>{formatPercent(c.win_rate)}</td>
                <td>{c.wins}</td>
                <td>{c.ties}</td>
                <td>{c.losses}</td>
                <td>{c.mean_length === null ? "—" : fixed(c.mean_length, 0)}</td>
                <td>
                  {scoreBased ? c.scored : c.answered}/{r.questions}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p data-testid="distinguishable">
        {r.not_distinguishable.length > 0
          ? t("arena.notDistinguishable", {
              pairs: r.not_distinguishable.map(([x, y]) => `${x} ~ ${y}`).join(", "),
            })
          : t("arena.allDistinguishable")}
      </p>
      <p data-testid="length-note">
        {t("arena.length", {
          coefficient: signed(lc.coefficient),
          low: fixed(lc.ci[0] ?? Number.NaN, 3),
          high: fixed(lc.ci[1] ?? Number.NaN, 3),
          comparisons: lc.comparisons,
        })}{" "}
        {(lc.ci[0] ?? 0) > 0
          ? t("arena.lengthLonger")
          : (lc.ci[1] ?? 0) < 0
            ? t("arena.lengthShorter")
            : t("arena.lengthNone")}
      </p>
      <div className="charts">
        <RatingsChart results={r} />
        <WinMatrix results={r} />
        <ArenaRadar results={r} />
      </div>
      <h2>{t("arena.pairs")}</h2>
      <p className="muted">{t("arena.distinguishableRule")}</p>
      <div className="table-scroll">
        <table data-testid="pairs-table">
          <thead>
            <tr>
              <th scope="col">{t("arena.pairA")}</th>
              <th scope="col">{t("arena.pairB")}</th>
              <th scope="col">{t("arena.aWins")}</th>
              <th scope="col">{t("arena.ties")}</th>
              <th scope="col">{t("arena.bWins")}</th>
              <th scope="col">{t("arena.missing")}</th>
              <th scope="col">{t(scoreBased ? "arena.meanDifference" : "arena.netWins")}</th>
              <th scope="col">{t("arena.ci")}</th>
              <th scope="col">{t("arena.distinguishable")}</th>
            </tr>
          </thead>
          <tbody>
            {r.pairs.map((p) => (
              <tr key={`${p.a}|${p.b}`} data-testid="pair-row">
                <td>{p.a}</td>
                <td>{p.b}</td>
                <td>{p.wins}</td>
                <td>{p.ties}</td>
                <td>{p.losses}</td>
                <td>{p.missing}</td>
                <td>{p.mean_difference == null ? "—" : signed(p.mean_difference)}</td>
                <td>{interval(p.difference_ci, 3)}</td>
                <td>{p.distinguishable ? t("common.yes") : t("common.no")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.flip_rate && (
        <>
          <h2>{t("arena.flipRate")}</h2>
          <p className="muted">{t("arena.flipNote")}</p>
          <div className="table-scroll">
            <table data-testid="flip-table">
              <thead>
                <tr>
                  <th scope="col">{t("arena.judgeModel")}</th>
                  <th scope="col">{t("arena.judgedBoth")}</th>
                  <th scope="col">{t("arena.flipped")}</th>
                  <th scope="col">{t("arena.rate")}</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(r.flip_rate).map(([model, f]) => (
                  <tr key={model}>
                    <td>{model}</td>
                    <td>{f.judged}</td>
                    <td>{f.flipped}</td>
                    <td>{formatPercent(f.rate)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
      {r.judge_errors && (
        <>
          <h2>{t("arena.judgeErrors", { n: r.judge_errors.length })}</h2>
          {r.judge_errors.length > 0 && (
            <div className="table-scroll">
              <table data-testid="judge-errors">
                <thead>
                  <tr>
                    <th scope="col">{t("arena.pairA")}</th>
                    <th scope="col">{t("arena.pairB")}</th>
                    <th scope="col">{t("arena.question")}</th>
                    <th scope="col">{t("arena.message")}</th>
                  </tr>
                </thead>
                <tbody>
                  {r.judge_errors.map((e, i) => (
                    <tr key={i}>
                      <td>{e.a}</td>
                      <td>{e.b}</td>
                      <td>{e.question_id.slice(0, 8)}</td>
                      <td className="error-text">{e.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </>
  );
}
