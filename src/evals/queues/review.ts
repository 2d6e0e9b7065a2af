import {
  claimAnnotationItem,
  type Db,
  getAnnotationItem,
  listAnnotationLabels,
  saveAnnotationLabels,
} from "../../store/index.js";
import { QueueNotFoundError, QueueRequestError, QueueSlotTakenError } from "./errors.js";
import { checkLabels, type LabelSubmission, type Rubric } from "./rubric.js";
import { itemView, judgeView, type QueueCaller, storedChoice, visibleQueue } from "./service.js";

// Reviewing a queue: one item at a time, blind. The judge's verdict is sent only in the answer to
// the reviewer's own save, so it cannot sway the label.

/** How long a handed-out slot stays the reviewer's. */
export const LOCK_MS = 10 * 60_000;

// Owners and editors may review any queue of the workspace; an annotator only the queues assigned
// to them (visibleQueue: the others are not found).

/**
 * The next item for the caller: the one they hold, else the first with a free slot they have not
 * labelled, locked for them for LOCK_MS. Without a judge's verdict. Null when none is left.
 */
export async function nextItem(db: Db, caller: QueueCaller, queueId: string, lockMs = LOCK_MS) {
  const queue = await visibleQueue(db, caller, queueId);
  const item = await claimAnnotationItem(db, {
    queueId: queue.id,
    reviewerId: caller.userId,
    perItem: queue.reviewers_per_item,
    lockMs,
  });
  const labels = await listAnnotationLabels(db, queue.id);
  const mine = new Set(labels.filter((l) => l.reviewer_id === caller.userId).map((l) => l.item_id));
  return {
    rubric: queue.rubric as Rubric,
    labelled: mine.size,
    item: item ? itemView(item) : null,
    lock_expires_at: item ? new Date(Date.now() + lockMs) : null,
  };
}

/**
 * Saves the caller's labels of one item. Refused (QueueSlotTakenError, 409) when other reviewers'
 * labels, or their live locks, already fill the item's slots. Answers with the judge's verdict.
 */
export async function saveLabels(
  db: Db,
  caller: QueueCaller,
  queueId: string,
  itemId: string,
  submission: LabelSubmission,
) {
  const queue = await visibleQueue(db, caller, queueId);
  const item = await getAnnotationItem(db, queue.id, itemId);
  if (!item) throw new QueueNotFoundError("item", itemId);
  const checked = checkLabels(queue.rubric as Rubric, submission.labels);
  if ("field" in checked) throw new QueueRequestError(checked.field, checked.reason);
  const values = checked.values.map((v) => ({ ...v, choice: storedChoice(item, v.choice) }));
  const outcome = await saveAnnotationLabels(db, {
    queueId: queue.id,
    itemId: item.id,
    reviewerId: caller.userId,
    perItem: queue.reviewers_per_item,
    labels: values,
    reason: submission.reason ?? null,
  });
  if (outcome === "not_found") throw new QueueNotFoundError("item", itemId);
  if (outcome === "full") throw new QueueSlotTakenError(item.id);
  return {
    item_id: item.id,
    labels: checked.values,
    reason: submission.reason ?? null,
    judge: judgeView(item),
  };
}
