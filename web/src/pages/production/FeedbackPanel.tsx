import { type FormEvent, useState } from "react";
import { useCan } from "../../api/session";
import { ErrorNote } from "../../components/ErrorNote";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { type FeedbackDraft, type ProductionAnswer, useAddFeedback } from "./queries";

/** The feedback people gave on an answer, and a form to add some. */
export function FeedbackPanel({ answer }: { answer: ProductionAnswer }) {
  const writes = useCan("write");
  const { t, language } = useI18n();
  const add = useAddFeedback(answer.id);
  const [thumb, setThumb] = useState<"up" | "down">();
  const [score, setScore] = useState("");
  const [comment, setComment] = useState("");
  const [problem, setProblem] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const draft: FeedbackDraft = {
      ...(thumb ? { thumb } : {}),
      ...(score.trim() !== "" ? { score: Number(score) } : {}),
      ...(comment.trim() !== "" ? { comment: comment.trim() } : {}),
    };
    if (Object.keys(draft).length === 0) {
      setProblem(t("prod.feedbackNeedsSomething"));
      return;
    }
    setProblem(undefined);
    add.mutate(draft, {
      onSuccess: () => {
        setThumb(undefined);
        setScore("");
        setComment("");
      },
    });
  };

  return (
    <section aria-labelledby="feedback-title">
      <h2 id="feedback-title">{t("prod.feedback")}</h2>
      {answer.feedback.length === 0 ? (
        <p className="muted">{t("prod.feedbackEmpty")}</p>
      ) : (
        <ul data-testid="feedback-list">
          {answer.feedback.map((f) => (
            <li key={f.id}>
              <span className="muted">{formatDate(f.created_at, language)}</span>{" "}
              {f.thumb === "up" && <span>{t("prod.thumbUp")}</span>}
              {f.thumb === "down" && <span>{t("prod.thumbDown")}</span>}
              {f.score !== null && <span> · {t("prod.scoreValue", { score: f.score })}</span>}
              {f.comment && <span style={{ overflowWrap: "anywhere" }}> · {f.comment}</span>}
            </li>
          ))}
        </ul>
      )}
      {writes && (
        <form onSubmit={submit} className="stack-form">
          <fieldset className="row" style={{ gap: "0.5rem", border: "none", padding: 0 }}>
            <button
              type="button"
              aria-pressed={thumb === "up"}
              onClick={() => setThumb(thumb === "up" ? undefined : "up")}
            >
              {t("prod.thumbUp")}
            </button>
            <button
              type="button"
              aria-pressed={thumb === "down"}
              onClick={() => setThumb(thumb === "down" ? undefined : "down")}
            >
              {t("prod.thumbDown")}
            </button>
          </fieldset>
          <label className="field">
            {t("prod.score")}
            <input
              type="number"
              min={0}
              max={1}
              step={0.05}
              value={score}
              onChange={(e) => setScore(e.target.value)}
            />
          </label>
          <label className="field">
            {t("prod.comment")}
            <textarea
              value={comment}
              maxLength={4000}
              rows={3}
              onChange={(e) => setComment(e.target.value)}
            />
          </label>
          {problem && (
            <p className="error-text" role="alert">
              {problem}
            </p>
          )}
          <ErrorNote error={add.error} />
          <div>
            <button type="submit" className="primary" disabled={add.isPending}>
              {t("prod.addFeedback")}
            </button>
            {add.isSuccess && (
              <span role="status" className="muted" style={{ marginLeft: "0.5rem" }}>
                {t("prod.feedbackSaved")}
              </span>
            )}
          </div>
        </form>
      )}
    </section>
  );
}
