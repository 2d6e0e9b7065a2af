import { useState } from "react";
import type { EvaluationResult, StoredJudge } from "../../api/types";
import { formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";
import { splitCitations } from "./citations";

function textOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0)
    return value.join("\n");
  return undefined;
}

/** What a judge said, whatever its kind: reasoning and suggestions under their usual names. */
function judgeWords(judge: StoredJudge): { reasoning?: string; suggestions?: string } {
  const v = judge.verdict ?? {};
  return {
    reasoning:
      textOf(v.reasoning) ?? textOf(v.reason) ?? textOf(v.analysis) ?? textOf(v.explanation),
    suggestions: textOf(v.suggestions) ?? textOf(v.suggestion),
  };
}

/**
 * An opened ResultComparisonCard's body, from the result in full: the ground truth, the bot's
 * answer (its citations open the cited passage from the result's own sources), every judge, the
 * gate's failing checks and the built-in bot's loop trace.
 */
export function ResultDetail({ result }: { result: EvaluationResult }) {
  const { t } = useI18n();
  const [openCitation, setOpenCitation] = useState<string | undefined>();
  const sources = result.rag_answer_sources ?? [];
  const known = new Set([...sources.map((s) => s.node_id), ...(result.rag_citations ?? [])]);
  const passage =
    openCitation === undefined ? undefined : sources.find((s) => s.node_id === openCitation);
  const failing = (result.gate?.checks ?? []).filter(
    (c) => c.status !== "pass" && c.status !== "skipped",
  );
  const judges = Object.entries(result.judges ?? {});
  const passageId = `passage-${result.id}`;

  return (
    <div data-testid="result-detail">
      <div className="card-columns">
        <section>
          <h3>{t("card.groundTruth")}</h3>
          <p style={{ margin: 0 }}>{result.ground_truth || "—"}</p>
        </section>
        <section>
          <h3>{t("card.answer")}</h3>
          {result.rag_answer ? (
            <p style={{ margin: 0 }}>
              {splitCitations(result.rag_answer, known).map((segment, i) =>
                "text" in segment ? (
                  <span key={i}>{segment.text}</span>
                ) : (
                  <button
                    key={i}
                    type="button"
                    className="citation"
                    aria-expanded={openCitation === segment.citation}
                    aria-controls={passageId}
                    onClick={() =>
                      setOpenCitation(
                        openCitation === segment.citation ? undefined : segment.citation,
                      )
                    }
                  >
                    {segment.citation}
                  </button>
                ),
              )}
            </p>
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              {t("card.noAnswer")}
            </p>
          )}
          <div id={passageId} aria-live="polite">
            {openCitation !== undefined && (
              <div className="passage" data-testid="passage">
                <strong>{t("card.passage", { id: openCitation })}</strong>
                {passage?.title && <div className="muted">{passage.title}</div>}
                <p style={{ whiteSpace: "pre-wrap", margin: "0.25rem 0 0" }}>
                  {passage ? passage.content : t("card.citationNotFound")}
                </p>
              </div>
            )}
          </div>
        </section>
        <section>
          <h3>{t("card.judges")}</h3>
          {judges.length === 0 && <p className="muted">—</p>}
          {judges.map(([name, judge]) => {
            const words = judgeWords(judge);
            return (
              <div key={name} style={{ marginBottom: "0.5rem" }}>
                <div>
                  <strong>{name}</strong>{" "}
                  {judge.outcome && judge.outcome !== "ok" ? (
                    <span className="badge bad">{judge.outcome}</span>
                  ) : (
                    <>
                      {formatScore(judge.score)}
                      {judge.raw_score !== undefined && (
                        <span className="muted"> ({judge.raw_score})</span>
                      )}{" "}
                      {judge.passed !== undefined && (
                        <span className={`badge ${judge.passed ? "ok" : "bad"}`}>
                          {judge.passed ? t("card.passed") : t("card.failed")}
                        </span>
                      )}
                    </>
                  )}
                  {judge.model && <span className="muted"> · {judge.model}</span>}
                </div>
                {judge.error && <div className="error-text">{judge.error}</div>}
                {words.reasoning && (
                  <div>
                    <span className="muted">{t("card.reasoning")}: </span>
                    {words.reasoning}
                  </div>
                )}
                {words.suggestions && (
                  <div>
                    <span className="muted">{t("card.suggestions")}: </span>
                    {words.suggestions}
                  </div>
                )}
              </div>
            );
          })}
        </section>
      </div>
      {failing.length > 0 && (
        <div>
          <h3>{t("card.failingChecks")}</h3>
          <ul style={{ margin: 0 }}>
            {failing.map((check) => (
              <li key={check.name}>
                <code>{check.name}</code>: <StatusBadge status={check.status} />{" "}
                {check.message ??
                  (check.detail ? (
                    <span className="muted">{JSON.stringify(check.detail).slice(0, 240)}</span>
                  ) : null)}
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.rag_tool_calls && result.rag_tool_calls.length > 0 && (
        <details>
          <summary>{t("card.trace")}</summary>
          <ol style={{ margin: 0 }}>
            {result.rag_tool_calls.map((step, i) => (
              <li key={i}>
                <code>
                  {step.machine ? `${step.machine}.` : ""}
                  {step.node}
                </code>
                {step.next && (
                  <>
                    {" "}
                    → <code>{step.next}</code>
                  </>
                )}{" "}
                <span className="muted">{step.summary}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
