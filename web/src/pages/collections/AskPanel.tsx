import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, must } from "../../api/client";
import { CitedAnswer } from "../../components/CitedAnswer";
import { ErrorNote } from "../../components/ErrorNote";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import { MermaidDiagram } from "./MermaidDiagram";

/**
 * Ask the built-in bot: its answer (citations open their passages), sources, the gate's verdict
 * and the Mermaid diagrams of both loops, drawn.
 */
export function AskPanel({ collectionId }: { collectionId: string }) {
  const { t } = useI18n();
  const [question, setQuestion] = useState("");
  const ask = useMutation({
    mutationFn: async () =>
      must(api.POST("/api/v1/ask", { body: { collection_id: collectionId, question } })),
  });
  const answer = ask.data;
  const failing =
    answer?.gate.checks.filter((c) => c.status !== "pass" && c.status !== "skipped") ?? [];
  return (
    <section aria-labelledby="ask-title">
      <h2 id="ask-title">{t("col.ask")}</h2>
      <form
        className="row"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          if (question.trim()) ask.mutate();
        }}
      >
        <label style={{ flex: 1 }}>
          {t("col.question")}
          <input value={question} onChange={(e) => setQuestion(e.target.value)} />
        </label>
        <button className="primary" type="submit" disabled={!question.trim() || ask.isPending}>
          {t("col.askSubmit")}
        </button>
      </form>
      <ErrorNote error={ask.error} />
      {ask.isPending && <p>{t("common.loading")}</p>}
      {answer && (
        <div className="card" data-testid="ask-answer">
          <div className="row" style={{ alignItems: "center" }}>
            <h3>{t("col.answer")}</h3>
            <StatusBadge status={answer.gate.status} />
            <span className="muted">
              {t("col.action", { action: t(`col.gateAction.${answer.action}`) })}
            </span>
          </div>
          {answer.response.notice && <p className="notice">{answer.response.notice}</p>}
          {/* A new answer starts with no passage open. */}
          <CitedAnswer key={answer.message_id} answer={answer.final_answer} sources={answer.hits} />
          {failing.length > 0 && (
            <>
              <h3>{t("card.failingChecks")}</h3>
              <ul>
                {failing.map((c) => (
                  <li key={c.name}>
                    <code>{c.name}</code> <StatusBadge status={c.status} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <h3>{t("col.sources")}</h3>
          <ol>
            {answer.hits.map((h) => (
              <li key={h.node_id}>
                <code>{h.node_id}</code> {h.title && <span className="muted">— {h.title}</span>}
              </li>
            ))}
          </ol>
          <h3>{t("col.diagrams")}</h3>
          {Object.entries(answer.diagrams).map(([name, source]) => (
            <MermaidDiagram key={name} name={name} source={source} />
          ))}
        </div>
      )}
    </section>
  );
}
