import { useQuery } from "@tanstack/react-query";
import { api, must } from "../../api/client";
import type { EvaluationResult } from "../../api/types";
import { CitedAnswer } from "../../components/CitedAnswer";
import { citationNumbers, splitCitations } from "../../components/citations";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import { JudgeVerdicts, VerdictHeadline } from "../evaluation-detail/ResultDetail";
import { diffWords } from "./word-diff";

/** One side's result in full (answer, sources, judges); results do not change once compared. */
function useResult(evaluationId: string, resultId: string) {
  return useQuery({
    queryKey: ["evaluation", evaluationId, "result", resultId, "compare"],
    staleTime: 60_000,
    queryFn: () =>
      must(
        api.GET("/api/v1/evaluations/{id}/results/{resultId}", {
          params: { path: { id: evaluationId, resultId } },
        }),
      ),
  });
}

/** The passages an answer cites, named by title or source (never an internal id). */
function Citations({ result }: { result: EvaluationResult }) {
  const { t } = useI18n();
  const sources = result.rag_answer_sources ?? [];
  const cited = [...new Set(result.rag_citations ?? [])];
  if (cited.length === 0) return <p className="muted">{t("compare.drill.noCitations")}</p>;
  return (
    <ol data-testid="compare-citations" style={{ margin: 0 }}>
      {cited.map((id) => {
        const source = sources.find((s) => s.node_id === id);
        return (
          <li key={id} value={source ? sources.indexOf(source) + 1 : undefined}>
            {source?.title || source?.source || t("card.citationNotFound")}
          </li>
        );
      })}
    </ol>
  );
}

function Side({
  label,
  runName,
  query,
}: {
  label: string;
  runName: string;
  query: ReturnType<typeof useResult>;
}) {
  const { t } = useI18n();
  const result = query.data;
  return (
    <section data-testid="compare-side" aria-label={`${label} · ${runName}`}>
      <h3>
        {label} · {runName}
      </h3>
      <ErrorNote error={query.error} />
      {!result && !query.error && <p>{t("common.loading")}</p>}
      {result && (
        <>
          <VerdictHeadline result={result} />
          <h4>{t("card.answer")}</h4>
          {result.rag_answer ? (
            <CitedAnswer
              answer={result.rag_answer}
              sources={result.rag_answer_sources ?? []}
              citations={result.rag_citations ?? []}
            />
          ) : (
            <p className="muted">{t("card.noAnswer")}</p>
          )}
          <h4>{t("compare.drill.citations")}</h4>
          <Citations result={result} />
          <h4>{t("card.judges")}</h4>
          <JudgeVerdicts judges={result.judges ?? {}} />
        </>
      )}
    </section>
  );
}

/** A side's answer as the diff needs it: its text, what it may cite, and its chips' names. */
function citedSide(result: EvaluationResult) {
  const answer = result.rag_answer ?? "";
  const sources = result.rag_answer_sources ?? [];
  const known = new Set([...sources.map((s) => s.node_id), ...(result.rag_citations ?? [])]);
  const numberOf = citationNumbers(splitCitations(answer, known), sources);
  return { answer, sources, known, numberOf };
}

/**
 * The words A's answer lost (struck through) and B's gained (underlined), in reading order; its
 * citation markers are chips like the answer's own (a removed one numbered as in A's answer).
 */
function AnswerDiff({ before, after }: { before: EvaluationResult; after: EvaluationResult }) {
  const { t } = useI18n();
  const a = citedSide(before);
  const b = citedSide(after);
  if (a.answer === b.answer) return <p className="muted">{t("compare.drill.sameAnswer")}</p>;
  const chip = (id: string, side: typeof a, key: number) => {
    const source = side.sources.find((s) => s.node_id === id);
    const n = side.numberOf(id);
    return (
      <span
        key={key}
        className="citation"
        data-testid="diff-citation"
        title={t("card.citationTitle", {
          n,
          title: source?.title || source?.source || t("card.citationNotFound"),
        })}
      >
        [{n}]
      </span>
    );
  };
  return (
    <p data-testid="compare-diff" className="word-diff" style={{ margin: 0 }}>
      {diffWords(a.answer, b.answer, { before: a.known, after: b.known }).map((segment, i) => {
        const side = segment.kind === "removed" ? a : b;
        const content =
          segment.citation === undefined ? segment.text : chip(segment.citation, side, i);
        return segment.kind === "same" ? (
          <span key={i}>{content}</span>
        ) : segment.kind === "removed" ? (
          <del key={i} title={t("compare.drill.onlyA")}>
            {content}
          </del>
        ) : (
          <ins key={i} title={t("compare.drill.onlyB")}>
            {content}
          </ins>
        );
      })}
    </p>
  );
}

/**
 * A compared question opened: A's and B's results side by side (verdict, answer with its
 * citations, every judge), then the word diff from A's answer to B's.
 */
export function CompareDrill({
  base,
  head,
}: {
  base: { evaluationId: string; resultId: string; runName: string };
  head: { evaluationId: string; resultId: string; runName: string };
}) {
  const { t } = useI18n();
  const a = useResult(base.evaluationId, base.resultId);
  const b = useResult(head.evaluationId, head.resultId);
  return (
    <div data-testid="compare-drill" className="compare-drill">
      <div className="compare-sides">
        <Side label="A" runName={base.runName} query={a} />
        <Side label="B" runName={head.runName} query={b} />
      </div>
      {a.data && b.data && (
        <section>
          <h3>{t("compare.drill.diff")}</h3>
          <AnswerDiff before={a.data} after={b.data} />
        </section>
      )}
    </div>
  );
}
