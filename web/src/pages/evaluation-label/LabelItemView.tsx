import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useReducer, useState } from "react";
import { CitedAnswer } from "../../components/CitedAnswer";
import { type ItemKeyPress, useItemKeys } from "../../components/item-keys";
import { LabelNote } from "../../components/LabelNote";
import { RadioChoices } from "../../components/RadioChoices";
import { StatusBadge } from "../../components/StatusBadge";
import { VerdictCard, YourLabelCard } from "../../components/LabelCards";
import { useI18n } from "../../i18n/i18n";
import { questionTypeName } from "../../i18n/name-strings";
import { JudgesBeside } from "./JudgesBeside";
import { enterMeans, initialLabelState, isDirty, labelReducer } from "./label-state";
import { type LabelItem, labelItemKey, putLabel } from "./queries";
import { ShortcutHelp } from "./ShortcutHelp";
import { type ShortcutAction, shortcutFor } from "./shortcuts";

const scoreRange = (scale: LabelItem["scale"]) =>
  scale === "pass_fail" ? [] : Array.from({ length: scale === "1-10" ? 10 : 5 }, (_, i) => i + 1);

/**
 * One result to label: what the person needs to judge the answer, their label, and, only once it
 * is saved, the judges' verdict beside it. Keyed by result and scale, so each starts fresh.
 */
export function LabelItemView({
  evaluationId,
  item,
  onMove,
  onSkip,
}: {
  evaluationId: string;
  item: LabelItem;
  onMove: (resultId: string) => void;
  onSkip: () => void;
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const { result, scale } = item;
  const [state, dispatch] = useReducer(labelReducer, item.label, initialLabelState);
  const [helpOpen, setHelpOpen] = useState(true);
  const [announcement, setAnnouncement] = useState("");
  const save = useCallback(async () => {
    const what = enterMeans(state, scale);
    if (what === "continue") return onSkip();
    if (state.phase === "saving") return;
    dispatch({ type: "save", scale });
    if (what !== "save") return;
    const { score, passed } = state.draft;
    const text = state.draft.note.trim();
    try {
      const label = await putLabel(evaluationId, result.id, scale, {
        ...(scale === "pass_fail" ? { passed: passed ?? false } : { score: score ?? 0 }),
        ...(text ? { note: text } : {}),
      });
      dispatch({
        type: "saved",
        label: { score: label.score, passed: label.passed, note: label.note ?? "" },
      });
      setAnnouncement(t("label.saved"));
      // The item now comes back with the judges' verdict; counts and calibration move too.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: labelItemKey(evaluationId, result.id, scale) }),
        queryClient.invalidateQueries({ queryKey: ["evaluation", evaluationId, "labels"] }),
        queryClient.invalidateQueries({ queryKey: ["evaluation", evaluationId, "calibration"] }),
      ]);
    } catch (error) {
      dispatch({ type: "failed", message: error instanceof Error ? error.message : String(error) });
    }
  }, [state, scale, evaluationId, result.id, onSkip, queryClient, t]);

  const act = useCallback(
    (action: ShortcutAction) => {
      switch (action.kind) {
        case "score":
          return dispatch({ type: "score", score: action.score });
        case "pass":
          return dispatch({ type: "pass", passed: action.passed });
        case "save":
          return void save();
        case "next":
          return item.next_id ? onMove(item.next_id) : undefined;
        case "previous":
          return item.previous_id ? onMove(item.previous_id) : undefined;
        case "skip":
          return onSkip();
        case "help":
          return setHelpOpen((open) => !open);
      }
    },
    [save, item.next_id, item.previous_id, onMove, onSkip],
  );

  const actionFor = useCallback(
    (press: ItemKeyPress) => {
      const action = shortcutFor(press, scale);
      return action ? () => act(action) : null;
    },
    [act, scale],
  );
  const { heading, note } = useItemKeys(actionFor);

  const revealed = state.phase === "revealed" && item.judges !== null;
  const sources = result.sources ?? [];
  const cited = new Set(result.citations ?? []);
  const references =
    result.ground_truths && result.ground_truths.length > 0
      ? result.ground_truths
      : result.ground_truth
        ? [result.ground_truth]
        : [];
  const dirty = isDirty(state);

  return (
    <article className="label-layout" data-testid="label-item" aria-labelledby="label-item-title">
      <div>
        <h2 id="label-item-title" ref={heading} tabIndex={-1}>
          {t("label.position", {
            index: item.index,
            total: item.total,
            position: result.position + 1,
          })}
        </h2>
        <div className="row" style={{ alignItems: "center" }}>
          <span className="muted">{questionTypeName(result.question_type, t)}</span>
          {result.status !== "SCORED" && <StatusBadge status={result.status} />}
        </div>
        {result.status !== "SCORED" && (
          <p className="notice">{t("label.notScored", { status: result.status })}</p>
        )}
        <section className="card">
          <h3>{t("card.question")}</h3>
          <p style={{ margin: 0 }} data-testid="label-question">
            {result.question}
          </p>
          <h3>{references.length > 1 ? t("label.groundTruths") : t("card.groundTruth")}</h3>
          {references.length === 0 ? (
            <p style={{ margin: 0 }}>—</p>
          ) : (
            <ul style={{ margin: 0 }}>
              {references.map((reference, i) => (
                <li key={i}>{reference}</li>
              ))}
            </ul>
          )}
          <h3>{t("card.answer")}</h3>
          {result.answer ? (
            <div data-testid="label-answer">
              <CitedAnswer
                answer={result.answer}
                sources={sources}
                citations={result.citations ?? []}
              />
            </div>
          ) : (
            <p className="muted" style={{ margin: 0 }}>
              {t("card.noAnswer")}
            </p>
          )}
        </section>
        <section className="card" aria-labelledby="label-contexts-title">
          <h3 id="label-contexts-title">{t("label.contexts", { count: sources.length })}</h3>
          {sources.length === 0 && <p className="muted">{t("label.noContexts")}</p>}
          <ol className="context-list">
            {sources.map((source) => (
              <li key={source.node_id}>
                <code>{source.node_id}</code>
                {cited.has(source.node_id) && (
                  <>
                    {" "}
                    <span className="badge">{t("label.cited")}</span>
                  </>
                )}
                {source.title && <span className="muted"> · {source.title}</span>}
                <p style={{ whiteSpace: "pre-wrap", margin: "0.25rem 0 0" }}>{source.content}</p>
              </li>
            ))}
          </ol>
        </section>
      </div>

      <div>
        <YourLabelCard>
          {scale === "pass_fail" ? (
            <fieldset className="score-choices" aria-describedby="label-hint">
              <legend>{t("label.verdictHint")}</legend>
              <p id="label-hint" className="visually-hidden">
                {t("label.key.pass")}: p / f
              </p>
              <RadioChoices
                name={`passed-${result.id}`}
                options={[true, false]}
                isChecked={(passed) => state.draft.passed === passed}
                onChoose={(passed) => dispatch({ type: "pass", passed })}
                labelOf={(passed) => (passed ? t("label.pass") : t("label.fail"))}
              />
            </fieldset>
          ) : (
            <fieldset className="score-choices" aria-describedby="label-hint">
              <legend>{t("label.score")}</legend>
              <p id="label-hint" className="muted" style={{ margin: "0 0 0.4rem", width: "100%" }}>
                {t(`label.scoreHint.${scale}`)}
              </p>
              <RadioChoices
                name={`score-${result.id}`}
                options={scoreRange(scale)}
                withValue
                isChecked={(score) => state.draft.score === score}
                onChoose={(score) => dispatch({ type: "score", score })}
                labelOf={(score) => score}
              />
            </fieldset>
          )}
          <LabelNote
            label={t("label.note")}
            noteRef={note}
            maxLength={4000}
            value={state.draft.note}
            onChange={(text) => dispatch({ type: "note", note: text })}
          />
          {state.error && (
            <p className="error-text" role="alert">
              {state.error.kind === "incomplete"
                ? t(scale === "pass_fail" ? "label.incomplete.pass" : "label.incomplete.score")
                : t("common.error", { message: state.error.message })}
            </p>
          )}
          <div className="row" style={{ alignItems: "center", marginTop: "0.5rem" }}>
            <button
              type="button"
              className="button primary"
              disabled={state.phase === "saving" || (state.phase === "revealed" && !dirty)}
              onClick={() => void save()}
            >
              {state.phase === "saving"
                ? t("label.saving")
                : state.phase === "revealed" && !dirty
                  ? t("label.savedButton")
                  : t("label.save")}
            </button>
            <p className="visually-hidden" aria-live="polite">
              {announcement}
            </p>
          </div>
          <div className="row" style={{ marginTop: "0.5rem" }}>
            <button
              type="button"
              disabled={!item.previous_id}
              onClick={() => item.previous_id && onMove(item.previous_id)}
            >
              ← {t("label.previous")}
            </button>
            <button
              type="button"
              disabled={!item.next_id}
              onClick={() => item.next_id && onMove(item.next_id)}
            >
              {t("label.next")} →
            </button>
            <button type="button" onClick={onSkip}>
              {t("label.skip")}
            </button>
          </div>
        </YourLabelCard>

        <VerdictCard revealed={revealed}>
          <JudgesBeside item={item} mine={state.saved} />
        </VerdictCard>

        <ShortcutHelp scale={scale} open={helpOpen} onToggle={setHelpOpen} />
      </div>
    </article>
  );
}
