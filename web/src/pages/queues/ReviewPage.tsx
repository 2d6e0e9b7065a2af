import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "@tanstack/react-router";
import { useCallback, useState } from "react";
import { ApiError } from "../../api/client";
import { ErrorNote } from "../../components/ErrorNote";
import { type ItemKeyPress, useItemKeys } from "../../components/item-keys";
import { LabelNote } from "../../components/LabelNote";
import { RadioChoices } from "../../components/RadioChoices";
import { VerdictCard, YourLabelCard } from "../../components/LabelCards";
import { useI18n } from "../../i18n/i18n";
import {
  type BlindItem,
  type Criterion,
  nextItem,
  queueKey,
  type Rubric,
  type Saved,
  saveLabel,
} from "./queries";
import { type Draft, emptyDraft, labelsOf, reviewKey, setValue } from "./review-draft";
import { VerdictView } from "./VerdictView";

/**
 * `/queues/{id}/review`: the reviewer's items one at a time, handed out and held for them by the
 * server, labelled by keyboard (digits, p / f, a / b / t, Enter), the judge's verdict shown only
 * in the answer to their save. A pair's answers are shown as A and B, without their contestants.
 */
export function ReviewPage() {
  const { t } = useI18n();
  const { queueId } = useParams({ from: "/queues/$queueId/review" });
  const [round, setRound] = useState(0);
  const next = useQuery({
    queryKey: [...queueKey(queueId), "next", round],
    queryFn: () => nextItem(queueId),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const data = next.data;
  return (
    <>
      <div className="row" style={{ justifyContent: "space-between", alignItems: "center" }}>
        <h1>{t("queue.reviewTitle")}</h1>
        <Link className="button" to="/queues/$queueId" params={{ queueId }}>
          {t("queue.backToQueue")}
        </Link>
      </div>
      <ErrorNote error={next.error} />
      {next.isPending && <p>{t("common.loading")}</p>}
      {data && (
        <p className="muted" data-testid="review-progress" aria-live="polite">
          {t("queue.youLabelled", { n: data.labelled })}
        </p>
      )}
      {data && !data.item && (
        <p className="notice good" data-testid="review-done">
          {t("queue.reviewDone")}
        </p>
      )}
      {data?.item && (
        <ReviewItem
          key={data.item.id}
          queueId={queueId}
          item={data.item}
          rubric={data.rubric}
          onNext={() => setRound((r) => r + 1)}
        />
      )}
    </>
  );
}

const range = (scale: Criterion["scale"]) => (scale === "1-10" ? 10 : scale === "1-5" ? 5 : 0);

function ReviewItem({
  queueId,
  item,
  rubric,
  onNext,
}: {
  queueId: string;
  item: BlindItem;
  rubric: Rubric;
  onNext: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const criteria = rubric.criteria;
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [reason, setReason] = useState("");
  const [saved, setSaved] = useState<Saved | null>(null);
  const [failure, setFailure] = useState<unknown>();
  const [missing, setMissing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = useCallback(async () => {
    if (saved) return onNext();
    if (saving) return;
    const result = labelsOf(draft, criteria);
    if ("missing" in result) return setMissing(result.missing);
    setMissing(null);
    setSaving(true);
    try {
      setSaved(await saveLabel(queueId, item.id, result.labels, reason.trim() || undefined));
      setFailure(undefined);
      await queryClient.invalidateQueries({ queryKey: queueKey(queueId), exact: true });
    } catch (error) {
      setFailure(error);
    } finally {
      setSaving(false);
    }
  }, [saved, saving, draft, criteria, queueId, item.id, reason, onNext, queryClient]);

  const actionFor = useCallback(
    (press: ItemKeyPress) => {
      const criterion = criteria[draft.active];
      if (!criterion) return null;
      const action = reviewKey(press, criterion);
      if (!action) return null;
      return () => {
        if (action.kind === "save") void save();
        else if (action.kind === "value" && !saved)
          setDraft((d) => setValue(d, criteria, action.value));
      };
    },
    [criteria, draft.active, save, saved],
  );
  const { heading, note } = useItemKeys(actionFor);

  const taken = ApiError.isInstance(failure) && failure.status === 409;
  const { content } = item;

  return (
    <article className="label-layout" data-testid="review-item" aria-labelledby="review-item-title">
      <div>
        <h2 id="review-item-title" ref={heading} tabIndex={-1}>
          {t("queue.itemTitle", { n: item.position + 1 })}
        </h2>
        <section className="card">
          <h3>{t("card.question")}</h3>
          <p style={{ margin: 0 }} data-testid="review-question">
            {content.question || t("common.none")}
          </p>
          {content.answers ? (
            <div className="pair-answers">
              {content.answers.map((answer, i) => (
                <div key={i} data-testid={`review-answer-${i === 0 ? "a" : "b"}`}>
                  <h3>{t(i === 0 ? "queue.answerA" : "queue.answerB")}</h3>
                  <p style={{ whiteSpace: "pre-wrap", margin: 0 }}>{answer}</p>
                </div>
              ))}
            </div>
          ) : (
            <>
              {content.ground_truth && (
                <>
                  <h3>{t("card.groundTruth")}</h3>
                  <p style={{ margin: 0 }}>{content.ground_truth}</p>
                </>
              )}
              <h3>{t("card.answer")}</h3>
              <p style={{ whiteSpace: "pre-wrap", margin: 0 }} data-testid="review-answer">
                {content.answer ?? t("card.noAnswer")}
              </p>
            </>
          )}
        </section>
        {content.contexts && content.contexts.length > 0 && (
          <section className="card">
            <h3>{t("label.contexts", { count: content.contexts.length })}</h3>
            <ol className="context-list">
              {content.contexts.map((context, i) => (
                <li key={i}>
                  <p style={{ whiteSpace: "pre-wrap", margin: 0 }}>{context}</p>
                </li>
              ))}
            </ol>
          </section>
        )}
      </div>
      <div>
        <YourLabelCard>
          {criteria.map((criterion, index) => (
            <fieldset
              key={criterion.name}
              className={`score-choices${index === draft.active && !saved ? " active" : ""}`}
              disabled={saved !== null}
            >
              <legend>
                {criterion.scale === "pairwise" ? t("queue.whichBetter") : criterion.name}
                {criterion.description && <span className="muted"> — {criterion.description}</span>}
              </legend>
              {criterion.scale === "pass_fail" ? (
                <RadioChoices
                  name={`${item.id}-${criterion.name}`}
                  options={[true, false]}
                  isChecked={(passed) => draft.values[criterion.name]?.passed === passed}
                  onChoose={(passed) => setDraft((d) => setValue(d, criteria, { passed }, index))}
                  labelOf={(passed) => (passed ? t("label.pass") : t("label.fail"))}
                />
              ) : criterion.scale === "pairwise" ? (
                <RadioChoices
                  name={`${item.id}-${criterion.name}`}
                  options={["a", "b", "tie"] as const}
                  isChecked={(choice) => draft.values[criterion.name]?.choice === choice}
                  onChoose={(choice) => setDraft((d) => setValue(d, criteria, { choice }, index))}
                  labelOf={(choice) => t(`queue.choice.${choice}`)}
                />
              ) : (
                <RadioChoices
                  name={`${item.id}-${criterion.name}`}
                  options={Array.from({ length: range(criterion.scale) }, (_, i) => i + 1)}
                  withValue
                  isChecked={(score) => draft.values[criterion.name]?.score === score}
                  onChoose={(score) => setDraft((d) => setValue(d, criteria, { score }, index))}
                  labelOf={(score) => score}
                />
              )}
            </fieldset>
          ))}
          <LabelNote
            label={t("queue.reason")}
            noteRef={note}
            maxLength={2000}
            value={reason}
            disabled={saved !== null}
            onChange={setReason}
          />
          {missing && (
            <p className="error-text" role="alert">
              {t("queue.missing", { criterion: missing })}
            </p>
          )}
          {taken ? (
            <p className="notice" role="alert" data-testid="slot-taken">
              {t("queue.slotTaken")}
            </p>
          ) : (
            <ErrorNote error={failure} />
          )}
          <div className="row" style={{ marginTop: "0.5rem" }}>
            {saved || taken ? (
              <button type="button" className="button primary" onClick={onNext}>
                {t("queue.nextItem")}
              </button>
            ) : (
              <button
                type="button"
                className="button primary"
                disabled={saving}
                onClick={() => void save()}
              >
                {saving ? t("label.saving") : t("label.save")}
              </button>
            )}
          </div>
          <p className="muted">{t(`queue.keys.${criteria[0]?.scale ?? "1-10"}`)}</p>
        </YourLabelCard>
        <VerdictCard revealed={saved !== null}>
          <div data-testid="queue-verdict">
            <VerdictView judge={saved?.judge ?? null} />
          </div>
        </VerdictCard>
      </div>
    </article>
  );
}
