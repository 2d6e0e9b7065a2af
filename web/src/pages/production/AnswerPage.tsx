import { SendToLabelling } from "../queues/SendToLabelling";
import { Link, useParams } from "@tanstack/react-router";
import { useCan } from "../../api/session";
import type { ReactNode } from "react";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import { AddToQuestionSet } from "../../components/AddToQuestionSet";
import { citedIds, hitAnchor, hitsOf } from "./answer-parts";
import { FeedbackPanel } from "./FeedbackPanel";
import { GateChecks } from "./GateChecks";
import { JudgmentsPanel } from "./JudgmentsPanel";
import { SpanTree } from "./SpanTree";
import { LinkedAnswer } from "./LinkedAnswer";
import { useAnswer } from "./queries";
import { VerdictBadge } from "./VerdictBadge";

/** `/production/answers/$answerId`: one answer, its evidence, the gate's checks and feedback. */
export function AnswerPage() {
  const writes = useCan("write");
  const { t, language } = useI18n();
  const { answerId } = useParams({ from: "/production/answers/$answerId" });
  const query = useAnswer(answerId);
  const answer = query.data;

  return (
    <section aria-labelledby="answer-title">
      <p>
        <Link to="/production/answers">← {t("prod.back")}</Link>
      </p>
      <ErrorNote error={query.error} />
      {query.isPending && <p>{t("common.loading")}</p>}
      {answer && (
        <>
          <div className="row" style={{ flexWrap: "wrap", gap: "0.5rem", alignItems: "center" }}>
            <h1 id="answer-title" style={{ margin: 0 }}>
              {t("prod.answerTitle")}
            </h1>
            <VerdictBadge verdict={answer.gate.status} />
            <span className="muted">{t(`prod.action.${answer.gate.action}` as MessageKey)}</span>
          </div>
          <h2>{t("prod.question")}</h2>
          <p style={{ overflowWrap: "anywhere" }}>{answer.query ?? t("common.none")}</p>
          <h2>{t("prod.answer")}</h2>
          <LinkedAnswer
            answer={answer.answer}
            hits={hitsOf(answer.input)}
            cited={citedIds(answer.input)}
          />
          <h2>{t("prod.checks")}</h2>
          <GateChecks checks={answer.gate.checks} />
          <h2>{t("prod.hits")}</h2>
          <HitList input={answer.input} />
          <h2>{t("prod.details")}</h2>
          <dl className="details-list">
            <Detail term={t("prod.col.received")}>
              {formatDate(answer.received_at, language)}
            </Detail>
            <Detail term={t("prod.col.service")}>{answer.service ?? t("common.none")}</Detail>
            <Detail term={t("prod.col.model")}>{answer.model ?? t("common.none")}</Detail>
            <Detail term={t("prod.latency")}>
              {answer.latency_ms === null
                ? t("common.none")
                : t("prod.latencyMs", { ms: answer.latency_ms })}
            </Detail>
            <Detail term={t("prod.tokens")}>
              {answer.prompt_tokens === null && answer.completion_tokens === null
                ? t("common.none")
                : t("prod.tokensValue", {
                    prompt: answer.prompt_tokens ?? "?",
                    completion: answer.completion_tokens ?? "?",
                  })}
            </Detail>
            <Detail term={t("prod.session")}>{answer.session_id ?? t("common.none")}</Detail>
            <Detail term={t("prod.conversation")}>{answer.conversation_id}</Detail>
            <Detail term={t("prod.message")}>{answer.message_id}</Detail>
            <Detail term={t("prod.metadata")}>
              {Object.keys(answer.metadata).length === 0
                ? t("prod.noMetadata")
                : Object.entries(answer.metadata)
                    .map(([key, value]) => `${key}: ${String(value)}`)
                    .join(" · ")}
            </Detail>
          </dl>
          <JudgmentsPanel judgments={answer.judgments} />
          <FeedbackPanel answer={answer} />
          {answer.spans && answer.spans.length > 0 && <SpanTree spans={answer.spans} />}
          {writes && (
            <section aria-labelledby="send-to-labelling-title">
              <h2 id="send-to-labelling-title">{t("queue.sendTitle")}</h2>
              <SendToLabelling
                source={{ kind: "production", answer_ids: [answer.id] }}
                name={(answer.query ?? answer.answer).slice(0, 80)}
              />
            </section>
          )}
          {writes && (
            <section aria-labelledby="add-to-set-title">
              <h2 id="add-to-set-title">{t("prod.addToSet")}</h2>
              <AddToQuestionSet question={answer.query} expected={answer.answer} />
            </section>
          )}
        </>
      )}
    </section>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt className="muted">{term}</dt>
      <dd style={{ margin: 0, overflowWrap: "anywhere" }}>{children}</dd>
    </div>
  );
}

function HitList({ input }: { input: Record<string, unknown> }) {
  const { t } = useI18n();
  const hits = hitsOf(input);
  const cited = new Set(citedIds(input));
  if (hits.length === 0) return <p className="muted">{t("prod.noHits")}</p>;
  return (
    <ol className="hit-list" data-testid="hits">
      {hits.map((hit, i) => (
        <li key={hitAnchor(i)} id={hitAnchor(i)} tabIndex={-1} className="passage">
          <strong>{t("prod.hit", { id: hit.node_id })}</strong>
          {cited.has(hit.node_id) && (
            <span className="badge ok" style={{ marginLeft: "0.4rem" }}>
              {t("prod.cited")}
            </span>
          )}
          {hit.score !== undefined && (
            <span className="muted"> · {t("prod.hitScore", { score: hit.score.toFixed(2) })}</span>
          )}
          {hit.source && <div className="muted">{hit.source}</div>}
          <p style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", margin: "0.25rem 0 0" }}>
            {hit.content}
          </p>
        </li>
      ))}
    </ol>
  );
}
