import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorNote } from "../../components/ErrorNote";
import { useI18n } from "../../i18n/i18n";
import {
  adjudicate,
  type Criterion,
  type LabelValue,
  type QueueItem,
  queueKey,
  type Rubric,
  useQueueItems,
} from "./queries";
import { VerdictView } from "./VerdictView";

type Value = Omit<LabelValue, "criterion">;

type T = ReturnType<typeof useI18n>["t"];

function shown(
  value: { score: number | null; passed: boolean | null; choice: "a" | "b" | "tie" | null },
  t: T,
) {
  if (value.score !== null) return String(value.score);
  if (value.passed !== null) return value.passed ? t("label.pass") : t("label.fail");
  if (value.choice !== null) return t(`queue.choice.${value.choice}`);
  return "—";
}

/**
 * The items people disagree on, widest first, each with every reviewer's label and the judge's
 * verdict side by side, and the final label an owner or editor sets (a run's result: it becomes
 * the run's human label, the one calibration uses).
 */
export function AdjudicationPanel({ queueId, rubric }: { queueId: string; rubric: Rubric }) {
  const { t } = useI18n();
  const items = useQueueItems(queueId, true);
  return (
    <section aria-labelledby="adjudication-title">
      <h2 id="adjudication-title">{t("queue.adjudication")}</h2>
      <p className="muted">{t("queue.adjudicationIntro")}</p>
      <ErrorNote error={items.error} />
      {items.data && items.data.items.length === 0 && <p>{t("queue.noDisagreement")}</p>}
      {items.data?.items.map((item) => (
        <AdjudicateItem key={item.id} queueId={queueId} item={item} criteria={rubric.criteria} />
      ))}
    </section>
  );
}

function AdjudicateItem({
  queueId,
  item,
  criteria,
}: {
  queueId: string;
  item: QueueItem;
  criteria: Criterion[];
}) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const initial: Record<string, Value> = {};
  for (const value of item.final?.labels ?? []) {
    initial[value.criterion] =
      value.score !== null
        ? { score: value.score }
        : value.passed !== null
          ? { passed: value.passed }
          : { choice: value.choice ?? "tie" };
  }
  const [values, setValues] = useState<Record<string, Value>>(initial);
  const save = useMutation({
    mutationFn: () =>
      adjudicate(
        queueId,
        item.id,
        criteria.map((c) => ({ criterion: c.name, ...values[c.name] })),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queueKey(queueId) }),
  });
  const reviewers = [...new Set(item.labels.map((l) => l.reviewer))];
  const complete = criteria.every((c) => values[c.name] !== undefined);
  return (
    <article
      className="card"
      data-testid="adjudicate-item"
      aria-label={t("queue.itemTitle", { n: item.position + 1 })}
    >
      <h3>{t("queue.itemTitle", { n: item.position + 1 })}</h3>
      <p style={{ margin: 0 }}>
        <strong>{t("card.question")}:</strong> {item.content.question}
      </p>
      {item.content.answers ? (
        <div className="pair-answers">
          <p>
            <strong>{t("queue.answerA")}:</strong> {item.content.answers[0]}
          </p>
          <p>
            <strong>{t("queue.answerB")}:</strong> {item.content.answers[1]}
          </p>
        </div>
      ) : (
        <p style={{ whiteSpace: "pre-wrap" }}>
          <strong>{t("card.answer")}:</strong> {item.content.answer ?? t("card.noAnswer")}
        </p>
      )}
      <div className="label-layout">
        <table>
          <thead>
            <tr>
              <th>{t("queue.reviewer")}</th>
              {criteria.map((c) => (
                <th key={c.name}>{c.scale === "pairwise" ? t("queue.whichBetter") : c.name}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {reviewers.map((reviewer) => (
              <tr key={reviewer}>
                <td>{reviewer}</td>
                {criteria.map((c) => {
                  const label = item.labels.find(
                    (l) => l.reviewer === reviewer && l.criterion === c.name,
                  );
                  return <td key={c.name}>{label ? shown(label, t) : "—"}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
        <div>
          <strong>{t("queue.judge")}</strong>
          <VerdictView judge={item.judge} />
        </div>
      </div>
      <form
        className="row"
        style={{ alignItems: "end" }}
        onSubmit={(e) => {
          e.preventDefault();
          if (complete) save.mutate();
        }}
      >
        {criteria.map((c) => (
          <label key={c.name} className="field">
            {t("queue.finalOf", {
              criterion: c.scale === "pairwise" ? t("queue.whichBetter") : c.name,
            })}
            <select
              value={JSON.stringify(values[c.name] ?? null)}
              onChange={(e) =>
                setValues((v) => ({ ...v, [c.name]: JSON.parse(e.target.value) as Value }))
              }
            >
              <option value="null">—</option>
              {optionsOf(c).map((option) => (
                <option key={JSON.stringify(option)} value={JSON.stringify(option)}>
                  {shown(
                    {
                      score: option.score ?? null,
                      passed: option.passed ?? null,
                      choice: option.choice ?? null,
                    },
                    t,
                  )}
                </option>
              ))}
            </select>
          </label>
        ))}
        <button type="submit" className="button primary" disabled={!complete || save.isPending}>
          {t("queue.setFinal")}
        </button>
        {item.final && !save.isPending && (
          <span className="badge" data-testid="final-set">
            {t("queue.finalSet")}
          </span>
        )}
      </form>
      <ErrorNote error={save.error} />
    </article>
  );
}

function optionsOf(criterion: Criterion): Value[] {
  if (criterion.scale === "pass_fail") return [{ passed: true }, { passed: false }];
  if (criterion.scale === "pairwise") return [{ choice: "a" }, { choice: "b" }, { choice: "tie" }];
  const max = criterion.scale === "1-10" ? 10 : 5;
  return Array.from({ length: max }, (_, i) => ({ score: i + 1 }));
}
