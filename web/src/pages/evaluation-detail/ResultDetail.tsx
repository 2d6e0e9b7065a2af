import { AddToQuestionSet } from "../../components/AddToQuestionSet";
import { explainCheck } from "../../../../src/gate/explain";
import { useState } from "react";
import type { EvaluationResult, JudgeResult, TraceStep } from "../../api/types";
import { CitedAnswer } from "../../components/CitedAnswer";
import { formatScore } from "../../components/format";
import { StatusBadge } from "../../components/StatusBadge";
import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import { MermaidDiagram } from "../collections/MermaidDiagram";
import { ClaimsDiagnosis } from "./ClaimsDiagnosis";
import { claimsDiagnoses } from "./claims-verdict";
import { groupJudgeErrors } from "./judge-errors";
import { judgeWords } from "./judge-words";
import { failingJudges, ownScale } from "./verdict";
import { ResultRetrieval } from "./ResultRetrieval";

/** The built-in bot's trace steps; an HTTP bot's tool calls are its own shape, shown as JSON. */
function isTraceStep(call: unknown): call is TraceStep {
  return typeof call === "object" && call !== null && typeof (call as TraceStep).node === "string";
}

const GATE_MEANING: Record<string, MessageKey> = {
  pass: "verdict.gateMeaning.pass",
  partial: "verdict.gateMeaning.partial",
  fail: "verdict.gateMeaning.fail",
  skipped: "verdict.gateMeaning.skipped",
};

/**
 * The built-in bot's two loops with the path this answer took, as the Ask page draws them. Drawn
 * only once opened: Mermaid is fetched when a diagram is about to be drawn.
 */
function LoopDiagrams({ diagrams }: { diagrams: NonNullable<EvaluationResult["diagrams"]> }) {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  return (
    <details
      data-testid="loop-diagrams"
      onToggle={(event) => setOpen((event.target as HTMLDetailsElement).open)}
    >
      <summary>{t("col.diagrams")}</summary>
      {open &&
        Object.entries(diagrams).map(([name, source]) => (
          <MermaidDiagram key={name} name={name} source={source} />
        ))}
    </details>
  );
}

/**
 * The judges that could not judge, one sentence per kind of error with a count; each judge's own
 * message and its unusable replies (validation dumps) stay behind a "details" toggle.
 */
function JudgeErrors({ judges }: { judges: Record<string, JudgeResult> }) {
  const { t } = useI18n();
  const groups = groupJudgeErrors(judges);
  if (groups.length === 0) return null;
  const name = (judge: string) =>
    judge in JUDGE_NAMES ? t(JUDGE_NAMES[judge] as MessageKey) : judge;
  return (
    <div data-testid="judge-errors">
      <h3>{t("judgeError.heading")}</h3>
      <ul style={{ margin: 0 }}>
        {groups.map((group) => (
          <li key={group.kind} data-testid="judge-error-group">
            {t("judgeError.group", {
              count: group.judges.length,
              judges: group.judges.map(name).join(", "),
              what: t(`judgeError.kind.${group.kind}` as MessageKey),
            })}
          </li>
        ))}
      </ul>
      <p className="muted" style={{ margin: 0 }}>
        {t("judgeError.noScore")}
      </p>
      <details>
        <summary>{t("judgeError.details")}</summary>
        {Object.entries(judges).map(([judge, result]) =>
          result.outcome === "judge_error" ? (
            <div key={judge}>
              <strong>{judge}</strong>: <span className="error-text">{result.error.message}</span>
              {Array.isArray(result.error.raw) && result.error.raw.length > 0 && (
                <pre className="code">{result.error.raw.map(String).join("\n\n")}</pre>
              )}
            </div>
          ) : null,
        )}
      </details>
    </div>
  );
}

const JUDGE_NAMES: Record<string, MessageKey> = {
  review: "verdict.judgeName.review",
  rubric: "verdict.judgeName.rubric",
  reference: "verdict.judgeName.reference",
  offline: "verdict.judgeName.offline",
  claims: "verdict.judgeName.claims",
  claims_offline: "verdict.judgeName.claims_offline",
};

/**
 * The result's verdict in words: who decided it, how its score is formed, what the gate's verdict
 * beside it means (the rule of src/evals/runs/run-item.ts, worded as in docs/judges.md).
 */
export function VerdictHeadline({ result }: { result: EvaluationResult }) {
  const { t, language } = useI18n();
  const judgeName = (name: string) =>
    name in JUDGE_NAMES ? t(JUDGE_NAMES[name] as MessageKey) : name;
  const failed = failingJudges(result.judges ?? {}).map(judgeName);
  const joined = failed.join(language === "zh" ? "和" : " and ");
  const gateFailed = result.gate_status === "fail";
  let headline: string;
  if (result.status !== "SCORED")
    headline = t("verdict.notScored", { reason: t(`status.${result.status}` as MessageKey) });
  else if (result.passed) headline = t("verdict.passed");
  else if (failed.length > 0 && gateFailed) headline = t("verdict.failedBoth", { judges: joined });
  else if (failed.length > 0) headline = t("verdict.failedJudges", { judges: joined });
  else headline = t("verdict.failedGate");
  const meaning = result.gate_status ? GATE_MEANING[result.gate_status] : undefined;
  return (
    <div className="notice" data-testid="verdict-headline">
      <strong>{headline}</strong>
      {result.status === "SCORED" && (
        <div>{t("verdict.rule", { score: formatScore(result.score) })}</div>
      )}
      {meaning && <div className="muted">{t(meaning)}</div>}
    </div>
  );
}

/** Every judge on its own scale, with its verdict, reasoning and suggestions. */
export function JudgeVerdicts({ judges }: { judges: Record<string, JudgeResult> }) {
  const { t, say } = useI18n();
  const entries = Object.entries(judges);
  return (
    <>
      {entries.length === 0 && <p className="muted">—</p>}
      {entries.map(([name, judge]) => {
        const words = judgeWords(judge, say);
        return (
          <div key={name} style={{ marginBottom: "0.5rem" }}>
            <div>
              <strong>{name}</strong>{" "}
              {judge.outcome === "ok" ? (
                <>
                  {ownScale(name, judge) && (
                    <span data-testid="judge-own-score">{ownScale(name, judge)} </span>
                  )}
                  <span className={`badge ${judge.passed ? "ok" : "bad"}`}>
                    {judge.passed ? t("card.passed") : t("card.failed")}
                  </span>
                </>
              ) : (
                <span className="badge bad">{t("status.JUDGE_ERROR")}</span>
              )}
              {judge.model && <span className="muted"> · {judge.model}</span>}
            </div>
            {words.reasoning && (
              <div data-testid="judge-reasoning">
                <span className="muted">{t("card.reasoning")}: </span>
                {words.reasoning}
              </div>
            )}
            {words.suggestions && (
              <div data-testid="judge-suggestions">
                <span className="muted">{t("card.suggestions")}: </span>
                {words.suggestions}
              </div>
            )}
          </div>
        );
      })}
    </>
  );
}

/**
 * An opened ResultComparisonCard's body, from the result in full: the ground truth, the bot's
 * answer (its citations open the cited passage from the result's own sources), every judge, the
 * gate's failing checks and the built-in bot's loop trace.
 */
export function ResultDetail({ result }: { result: EvaluationResult }) {
  const { t, language, say } = useI18n();
  const failing = (result.gate?.checks ?? []).filter(
    (c) => c.status !== "pass" && c.status !== "skipped",
  );

  return (
    <div data-testid="result-detail">
      <VerdictHeadline result={result} />
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
          <JudgeVerdicts judges={result.judges ?? {}} />
        </section>
      </div>
      {claimsDiagnoses(result.judges ?? {}).map(([judge, diagnosis]) => (
        <ClaimsDiagnosis
          key={judge}
          judge={judge}
          diagnosis={diagnosis}
          sources={result.rag_answer_sources ?? []}
        />
      ))}
      <JudgeErrors judges={result.judges ?? {}} />
      <ResultRetrieval result={result} />
      {failing.length > 0 && (
        <div>
          <h3>{t("card.failingChecks")}</h3>
          <ul style={{ margin: 0 }}>
            {failing.map((check) => (
              <li key={check.name} data-testid="failing-check">
                <StatusBadge status={check.status} /> {explainCheck(check, language)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <details data-testid="result-add-to-set">
        <summary>{t("prod.addToSet")}</summary>
        <AddToQuestionSet
          question={result.question_text}
          expected={result.ground_truth || result.rag_answer || ""}
        />
      </details>
      {result.diagrams && <LoopDiagrams diagrams={result.diagrams} />}
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
                  → <code>{step.next}</code>{" "}
                  <span className="muted" data-testid="trace-summary">
                    {/* Traces stored before the coded summary show the developer's line. */}
                    {step.summary_message ? say(step.summary_message) : step.summary}
                  </span>
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
