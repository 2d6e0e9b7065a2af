import type { EvaluationResult, JudgeResult, TraceStep } from "../../api/types";
import { CitedAnswer } from "../../components/CitedAnswer";
import { formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import { useI18n } from "../../i18n/i18n";

function textOf(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string") && value.length > 0)
    return value.join("\n");
  return undefined;
}

/** What a judge said, whatever its kind: reasoning and suggestions under their usual names. */
function judgeWords(judge: JudgeResult): { reasoning?: string; suggestions?: string } {
  // A failed judge said nothing to show: its reason is its error.
  const v: Record<string, unknown> = judge.outcome === "ok" ? judge.verdict : {};
  return {
    reasoning:
      textOf(v.reasoning) ?? textOf(v.reason) ?? textOf(v.analysis) ?? textOf(v.explanation),
    suggestions: textOf(v.suggestions) ?? textOf(v.suggestion),
  };
}

/** The built-in bot's trace steps; an HTTP bot's tool calls are its own shape, shown as JSON. */
function isTraceStep(call: unknown): call is TraceStep {
  return typeof call === "object" && call !== null && typeof (call as TraceStep).node === "string";
}

/**
 * An opened ResultComparisonCard's body, from the result in full: the ground truth, the bot's
 * answer (its citations open the cited passage from the result's own sources), every judge, the
 * gate's failing checks and the built-in bot's loop trace.
 */
export function ResultDetail({ result }: { result: EvaluationResult }) {
  const { t } = useI18n();
  const failing = (result.gate?.checks ?? []).filter(
    (c) => c.status !== "pass" && c.status !== "skipped",
  );
  const judges = Object.entries(result.judges ?? {});

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
            <CitedAnswer
              answer={result.rag_answer}
              sources={result.rag_answer_sources ?? []}
              citations={result.rag_citations ?? []}
            />
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              {t("card.noAnswer")}
            </p>
          )}
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
                  {judge.outcome === "ok" ? (
                    <>
                      {formatScore(judge.score)}
                      <span className="muted"> ({judge.raw_score})</span>{" "}
                      <span className={`badge ${judge.passed ? "ok" : "bad"}`}>
                        {judge.passed ? t("card.passed") : t("card.failed")}
                      </span>
                    </>
                  ) : (
                    <span className="badge bad">{judge.outcome}</span>
                  )}
                  {judge.model && <span className="muted"> · {judge.model}</span>}
                </div>
                {judge.outcome === "judge_error" && (
                  <div className="error-text">{judge.error.message}</div>
                )}
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
                <span className="muted">{JSON.stringify(check.detail).slice(0, 240)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
      {result.rag_tool_calls && result.rag_tool_calls.length > 0 && (
        <details>
          <summary>{t("card.trace")}</summary>
          <ol style={{ margin: 0 }}>
            {result.rag_tool_calls.map((step, i) =>
              isTraceStep(step) ? (
                <li key={i}>
                  <code>
                    {step.machine}.{step.node}
                  </code>{" "}
                  → <code>{step.next}</code> <span className="muted">{step.summary}</span>
                </li>
              ) : (
                <li key={i}>
                  <code>{JSON.stringify(step).slice(0, 240)}</code>
                </li>
              ),
            )}
          </ol>
        </details>
      )}
    </div>
  );
}
