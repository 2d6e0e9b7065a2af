// Public face of evals/queues: annotation queues (issue 28 §2) — made from a run, an arena or
// production answers; reviewed blind by several people; their agreement; adjudication.
export { adjudicate } from "./adjudicate.js";
export {
  bootstrapAlpha,
  type CriterionAgreement,
  type ItemDisagreement,
  majorityChoice,
  pairJudgeAgreement,
  peopleAgreement,
  type PersonLabel,
  topDisagreements,
} from "./agreement.js";
export { QueueNotFoundError, QueueRequestError, QueueSlotTakenError } from "./errors.js";
export { LOCK_MS, nextItem, saveLabels } from "./review.js";
export {
  CRITERION_SCALES,
  type Criterion,
  type CriterionScale,
  LabelSubmissionSchema,
  type LabelSubmission,
  type Rubric,
  RubricInputSchema,
} from "./rubric.js";
export {
  createQueue,
  getQueue,
  judgeView,
  type ItemContent,
  listQueues,
  MAX_QUEUE_ITEMS,
  type QueueCaller,
  QueueRequestSchema,
  type QueueRequest,
  queueAgreement,
  queueItems,
  type QueueView,
  removeQueue,
} from "./service.js";
