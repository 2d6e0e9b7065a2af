import { useQuery } from "@tanstack/react-query";
import { AddToQuestionSet } from "../../components/AddToQuestionSet";
import { Fragment, useState } from "react";
import { api, must } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { formatScore } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import type { MessageKey } from "../../i18n/strings";

/** The page reads at most this many questions (the API's page limit); a larger set says so. */
const PAGE = 500;

type Questions = Awaited<ReturnType<typeof fetchQuestions>>;
type Item = Questions["items"][number];
type Pair = Item["pairs"][number];

function fetchQuestions(id: string) {
  return must(
    api.GET("/api/v1/arenas/{id}/questions", {
      params: { path: { id }, query: { limit: PAGE } },
    }),
  );
}

/** Who won a pair on a question, in words. */
function PairOutcome({ pair }: { pair: Pair }) {
  const { t } = useI18n();
  const text =
    pair.outcome === "a"
      ? pair.a
      : pair.outcome === "b"
        ? pair.b
        : t(`arena.q.outcome.${pair.outcome}` as MessageKey);
  return (
    <span data-testid="pair-outcome">
      <span className={pair.outcome === "a" || pair.outcome === "b" ? "winner" : "muted"}>
        {text}
      </span>
      {pair.flipped && (
        <>
          {" "}
          <span className="badge warn" data-testid="flip-flag" title={t("arena.q.flipTitle")}>
            {t("arena.q.flipped")}
          </span>
        </>
      )}
    </span>
  );
}

/** One question opened: every contestant's answer side by side, then the judge's reasoning. */
function QuestionDetail({ item, pairwise }: { item: Item; pairwise: boolean }) {
  const { t } = useI18n();
  return (
    <div data-testid="arena-question-detail" className="arena-question-detail">
      <div className="answer-columns">
        {item.answers.map((answer) => (
          <section key={answer.contestant} data-testid="arena-answer">
            <h4>{answer.contestant}</h4>
            {answer.answer === null ? (
              <p className="muted">{t("arena.q.noAnswer")}</p>
            ) : (
              <p style={{ margin: 0, whiteSpace: "pre-wrap" }}>{answer.answer}</p>
            )}
            {answer.score !== null && (
              <p className="muted" style={{ margin: "0.25rem 0 0" }}>
                {t("arena.q.score", { score: formatScore(answer.score) })}
              </p>
            )}
            {answer.reasoning && (
              <p style={{ margin: "0.25rem 0 0" }}>
                <span className="muted">{t("card.reasoning")}: </span>
                {answer.reasoning}
              </p>
            )}
          </section>
        ))}
      </div>
      {pairwise &&
        item.pairs.map((pair) => (
          <div key={`${pair.a}|${pair.b}`} data-testid="arena-pair-reasoning">
            <h4>
              {pair.a} – {pair.b}: <PairOutcome pair={pair} />
            </h4>
            {pair.reasoning.map((reasoning, i) => (
              <p key={i} style={{ margin: "0.25rem 0" }}>
                <span className="muted">
                  {t("arena.q.firstShown", { name: i === 0 ? pair.a : pair.b })}:{" "}
                </span>
                {reasoning}
              </p>
            ))}
            {pair.error && <p className="error-text">{pair.error}</p>}
          </div>
        ))}
      <details data-testid="arena-add-to-set">
        <summary>{t("prod.addToSet")}</summary>
        <AddToQuestionSet question={item.question_text} expected={bestAnswer(item)} />
      </details>
    </div>
  );
}

/** The answer to start the expected answer from: the best-scored one, else the first given. */
function bestAnswer(item: Item): string {
  const given = item.answers.filter((answer) => answer.answer !== null);
  const best = [...given].sort((x, y) => (y.score ?? -Infinity) - (x.score ?? -Infinity))[0];
  return best?.answer ?? "";
}

/**
 * The arena question by question: who won each pair on each question (and, for the pairwise
 * judge, whether the two orders disagreed); a row opens every answer and the judge's reasoning.
 */
export function ArenaQuestions({ arenaId }: { arenaId: string }) {
  const { t } = useI18n();
  const questions = useQuery({
    queryKey: ["arenas", arenaId, "questions"],
    queryFn: () => fetchQuestions(arenaId),
  });
  const [opened, setOpened] = useState<string>();
  const data = questions.data;
  const pairwise = data?.judge === "pairwise";
  const pairNames = data?.items[0]?.pairs.map((p) => `${p.a} – ${p.b}`) ?? [];
  return (
    <>
      <h2 id="arena-questions">{t("arena.q.title")}</h2>
      <ErrorNote error={questions.error} />
      {questions.isPending && <p>{t("common.loading")}</p>}
      {data && data.total > data.items.length && (
        <p className="muted">{t("arena.q.firstOf", { n: data.items.length, total: data.total })}</p>
      )}
      {data && (
        <div className="table-scroll">
          <table data-testid="arena-questions">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">{t("arena.question")}</th>
                {pairNames.map((name) => (
                  <th scope="col" key={name}>
                    {pairNames.length === 1 ? t("arena.q.winner") : name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => {
                const isOpen = opened === item.question_id;
                const n = item.position + 1;
                return (
                  <Fragment key={item.question_id}>
                    <tr data-testid="arena-question-row">
                      <td>
                        <button
                          type="button"
                          className="row-toggle"
                          aria-expanded={isOpen}
                          aria-label={t(isOpen ? "arena.q.close" : "arena.q.open", { n })}
                          onClick={() => setOpened(isOpen ? undefined : item.question_id)}
                        >
                          {isOpen ? "▾" : "▸"} {n}
                        </button>
                      </td>
                      <td>{item.question_text}</td>
                      {item.pairs.map((pair) => (
                        <td key={`${pair.a}|${pair.b}`}>
                          <PairOutcome pair={pair} />
                        </td>
                      ))}
                    </tr>
                    {isOpen && (
                      <tr>
                        <td colSpan={2 + item.pairs.length}>
                          <QuestionDetail item={item} pairwise={pairwise} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
