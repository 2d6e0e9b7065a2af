import {
  type Db,
  getAnnotationItem,
  type LabelScale,
  setAnnotationFinal,
  upsertHumanLabels,
} from "../../store/index.js";
import { QueueNotFoundError, QueueRequestError } from "./errors.js";
import { checkLabels, type LabelSubmission, type Rubric } from "./rubric.js";
import { itemView, type QueueCaller, storedChoice, visibleQueue } from "./service.js";

// Adjudication (issue 28 §2): an owner or editor sets an item's final label. On a run's result the
// final label is the run's human label, so `ragjudge calibrate` and the calibration API use it:
// per scale, the rubric's first criterion on that scale.

const LABEL_SCALES = new Set<string>(["1-10", "1-5", "pass_fail"]);

export async function adjudicate(
  db: Db,
  caller: QueueCaller & { name: string },
  queueId: string,
  itemId: string,
  submission: LabelSubmission,
) {
  const queue = await visibleQueue(db, caller, queueId);
  const item = await getAnnotationItem(db, queue.id, itemId);
  if (!item) throw new QueueNotFoundError("item", itemId);
  const rubric = queue.rubric as Rubric;
  const checked = checkLabels(rubric, submission.labels);
  if ("field" in checked) throw new QueueRequestError(checked.field, checked.reason);
  const stored = checked.values.map((v) => ({ ...v, choice: storedChoice(item, v.choice) }));
  const note = submission.reason ?? null;
  const updated = await setAnnotationFinal(db, {
    queueId: queue.id,
    itemId: item.id,
    final: { labels: stored, note },
    userId: caller.userId,
  });
  if (!updated) throw new QueueNotFoundError("item", itemId);
  const subject = item.subject as { kind?: string; evaluation_id?: string; result_id?: string };
  let humanLabels = 0;
  if (subject.kind === "result" && subject.evaluation_id && subject.result_id) {
    const seen = new Set<string>();
    const labels = [];
    for (const value of stored) {
      const scale = rubric.criteria.find((c) => c.name === value.criterion)?.scale;
      if (!scale || !LABEL_SCALES.has(scale) || seen.has(scale)) continue;
      seen.add(scale);
      labels.push({
        evaluation_result_id: subject.result_id,
        scale: scale as LabelScale,
        score: value.score,
        passed: value.passed,
        note,
        labelled_by: `${caller.name} (adjudicated)`,
      });
    }
    humanLabels = (await upsertHumanLabels(db, caller.workspaceId, subject.evaluation_id, labels))
      .length;
  }
  return {
    ...itemView(updated),
    final: { labels: checked.values, note },
    final_at: updated.final_at,
    human_labels_written: humanLabels,
  };
}
