import { z } from "zod";
import {
  type AnnotationItemRow,
  type AnnotationQueueRow,
  annotationProgress,
  type Db,
  deleteAnnotationQueue,
  type EvaluationResultRow,
  findMembership,
  getAnnotationQueue,
  getAnswerRecord,
  getEvaluation,
  insertAnnotationQueue,
  listAnnotationItems,
  listAnnotationLabels,
  listAnnotationQueues,
  listEvaluationResults,
  type NewAnnotationItem,
  type WorkspaceRole,
} from "../../store/index.js";
import { arenaQuestions, seededRandom } from "../arena/index.js";
import { runJudges, scaleOfJudge } from "../calibration/index.js";
import {
  majorityChoice,
  pairJudgeAgreement,
  peopleAgreement,
  peopleStandings,
  type PersonLabel,
  topDisagreements,
} from "./agreement.js";
import { QueueNotFoundError, QueueRequestError } from "./errors.js";
import {
  type StoredValue,
  PAIRWISE_RUBRIC,
  type Rubric,
  type RubricInput,
  RubricInputSchema,
} from "./rubric.js";

// Annotation queues (issue 28 §2): made from a run's results, an arena's pairs or production
// answers; read with their progress, people's agreement and the items they disagree on.

/** Who is asking, and as what, in which workspace. */
export interface QueueCaller {
  workspaceId: string;
  userId: string;
  role: WorkspaceRole;
}

/** Items a queue may hold: a reviewer works through them one by one. */
export const MAX_QUEUE_ITEMS = 5_000;

const Sample = z
  .object({
    size: z.number().int().min(1).max(MAX_QUEUE_ITEMS),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
  })
  .strict();

const Uuid = z.uuid("an id");

export const QueueSourceSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("run"),
      evaluation_id: Uuid,
      /** Only these results; default every result that passes the filter. */
      result_ids: z.array(Uuid).min(1).max(MAX_QUEUE_ITEMS).optional(),
      filter: z
        .object({
          status: z.enum(["SCORED", "JUDGE_ERROR", "BOT_ERROR"]).default("SCORED"),
          passed: z.boolean().optional(),
          score_min: z.number().min(0).max(1).optional(),
          score_max: z.number().min(0).max(1).optional(),
        })
        .strict()
        .optional(),
      sample: Sample.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal("arena"),
      arena_id: Uuid,
      sample: Sample.optional(),
      /** Which side is shown first is drawn per item from this seed. */
      seed: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .default(1),
    })
    .strict(),
  z
    .object({
      kind: z.literal("production"),
      answer_ids: z.array(Uuid).min(1, "at least one answer").max(1_000),
    })
    .strict(),
]);
export type QueueSource = z.infer<typeof QueueSourceSchema>;

export const QueueRequestSchema = z
  .object({
    name: z.string().trim().min(1, "required").max(200, "at most 200 characters"),
    source: QueueSourceSchema,
    rubric: RubricInputSchema.optional(),
    reviewers: z.array(Uuid).min(1, "at least one reviewer").max(50, "at most 50 reviewers"),
    reviewers_per_item: z.number().int().min(1).max(5).default(1),
  })
  .strict();
export type QueueRequest = z.infer<typeof QueueRequestSchema>;

/** Characters of each context kept on an item. */
const CONTEXT_CHARS = 2_000;

export interface ItemContent {
  question: string;
  answer?: string | null;
  ground_truth?: string | null;
  contexts?: string[];
  /** Pairwise: the two answers as shown, A first. */
  answers?: [string, string];
}

const CHOICES = new Set(["a", "b", "tie"]);

function contextsOf(sources: unknown): string[] {
  if (!Array.isArray(sources)) return [];
  return sources.slice(0, 5).map((source) => {
    const content = (source ?? {}) as { content?: unknown };
    return typeof content.content === "string" ? content.content.slice(0, CONTEXT_CHARS) : "";
  });
}

/** A seeded draw of `size` of `rows`, kept in their order. */
function sampleOf<T>(rows: readonly T[], sample: { size: number; seed: number } | undefined): T[] {
  if (!sample || sample.size >= rows.length) return [...rows];
  const random = seededRandom(sample.seed);
  const index = rows.map((_, i) => i);
  for (let i = index.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [index[i], index[j]] = [index[j] as number, index[i] as number];
  }
  return index
    .slice(0, sample.size)
    .sort((a, b) => a - b)
    .map((i) => rows[i] as T);
}

function tooMany(n: number): QueueRequestError {
  return new QueueRequestError(
    "source",
    `${n} items; a queue holds at most ${MAX_QUEUE_ITEMS} (take a sample)`,
  );
}

function judgesOfResult(row: EvaluationResultRow, judges: readonly string[]) {
  const stored = (row.judges ?? {}) as Record<
    string,
    { outcome?: string; raw_score?: unknown; passed?: unknown; verdict?: unknown }
  >;
  return judges.map((name) => {
    const result = stored[name];
    const verdict = (result?.verdict ?? {}) as Record<string, unknown>;
    const reasoning = ["reasoning", "reason", "analysis"]
      .map((key) => verdict[key])
      .find((v): v is string => typeof v === "string");
    return {
      name,
      outcome: result?.outcome ?? "missing",
      raw_score: typeof result?.raw_score === "number" ? result.raw_score : null,
      passed: typeof result?.passed === "boolean" ? result.passed : null,
      reasoning: reasoning?.slice(0, 4_000) ?? null,
    };
  });
}

async function runItems(
  db: Db,
  workspaceId: string,
  source: Extract<QueueSource, { kind: "run" }>,
  rubricInput: RubricInput | undefined,
): Promise<{ items: NewAnnotationItem[]; rubric: Rubric }> {
  const evaluation = await getEvaluation(db, workspaceId, source.evaluation_id);
  if (!evaluation) throw new QueueNotFoundError("evaluation", source.evaluation_id);
  const { judges } = runJudges(evaluation);
  const rubric = rubricOf(rubricInput ?? { kind: "judge_scale" }, judges);
  const filter = source.filter ?? { status: "SCORED" as const };
  let rows = await listEvaluationResults(db, workspaceId, evaluation.id, {
    statuses: [filter.status],
  });
  if (source.result_ids) {
    const wanted = new Set(source.result_ids);
    const missing = source.result_ids.find((id) => !rows.some((row) => row.id === id));
    if (missing) throw new QueueNotFoundError("result", missing);
    rows = rows.filter((row) => wanted.has(row.id));
  }
  rows = rows.filter(
    (row) =>
      (filter.passed === undefined || row.passed === filter.passed) &&
      (filter.score_min === undefined || (row.score ?? -1) >= filter.score_min) &&
      (filter.score_max === undefined || (row.score ?? 2) <= filter.score_max),
  );
  rows = sampleOf(rows, source.sample);
  if (rows.length === 0) throw new QueueRequestError("source", "no result of the run fits");
  if (rows.length > MAX_QUEUE_ITEMS) throw tooMany(rows.length);
  return {
    rubric,
    items: rows.map((row) => ({
      evaluation_result_id: row.id,
      subject: {
        kind: "result",
        evaluation_id: evaluation.id,
        result_id: row.id,
        question_id: row.question_id,
      },
      content: {
        question: row.question_text,
        answer: row.rag_answer,
        ground_truth: row.ground_truth || null,
        contexts: contextsOf(row.rag_answer_sources),
      } satisfies ItemContent,
      judge: { judges: judgesOfResult(row, judges) },
    })),
  };
}

async function arenaItems(
  db: Db,
  workspaceId: string,
  source: Extract<QueueSource, { kind: "arena" }>,
): Promise<NewAnnotationItem[]> {
  const arena = await arenaQuestions({ db }, workspaceId, source.arena_id, {
    offset: 0,
    limit: 1_000_000,
  });
  const random = seededRandom(source.seed);
  const pairs: NewAnnotationItem[] = [];
  for (const question of arena.items) {
    const answerOf = new Map(question.answers.map((a) => [a.contestant, a.answer]));
    for (const pair of question.pairs) {
      const a = answerOf.get(pair.a);
      const b = answerOf.get(pair.b);
      if (a === null || a === undefined || b === null || b === undefined) continue;
      // The side shown first is drawn per item, and the contestants are never shown.
      const swapped = random() < 0.5;
      pairs.push({
        evaluation_result_id: null,
        subject: {
          kind: "pair",
          arena_id: source.arena_id,
          question_id: question.question_id,
          a: pair.a,
          b: pair.b,
          swapped,
        },
        content: {
          question: question.question_text,
          answers: swapped ? [b, a] : [a, b],
        } satisfies ItemContent,
        judge: {
          outcome: CHOICES.has(pair.outcome) ? pair.outcome : null,
          flipped: pair.flipped,
          reasoning: pair.reasoning.slice(0, 2).map((r) => r.slice(0, 4_000)),
        },
      });
    }
  }
  const items = sampleOf(pairs, source.sample);
  if (items.length === 0) {
    throw new QueueRequestError("source", "the arena has no pair with both answers to review");
  }
  if (items.length > MAX_QUEUE_ITEMS) throw tooMany(items.length);
  return items;
}

async function productionItems(
  db: Db,
  workspaceId: string,
  source: Extract<QueueSource, { kind: "production" }>,
): Promise<NewAnnotationItem[]> {
  const items: NewAnnotationItem[] = [];
  for (const id of new Set(source.answer_ids)) {
    const answer = await getAnswerRecord(db, workspaceId, id);
    if (!answer) throw new QueueNotFoundError("answer", id);
    const input = answer.input as { retrieval_hits?: unknown };
    items.push({
      evaluation_result_id: null,
      subject: { kind: "answer", answer_id: answer.id, received_at: answer.received_at },
      content: {
        question: answer.query ?? "",
        answer: answer.answer,
        contexts: contextsOf(input.retrieval_hits),
      } satisfies ItemContent,
      judge: { gate_status: answer.gate_status, gate_action: answer.gate_action },
    });
  }
  return items;
}

/** The rubric a request asks for, resolved against the run's judges. */
function rubricOf(input: RubricInput, judges: readonly string[]): Rubric {
  if (input.kind === "pass_fail") {
    return {
      kind: "pass_fail",
      criteria: [{ name: "pass", scale: "pass_fail", description: input.description ?? "" }],
    };
  }
  if (input.kind === "criteria") return { kind: "criteria", criteria: input.criteria };
  const judge = input.judge ?? judges.find((j) => scaleOfJudge(j) !== null) ?? judges[0];
  if (judge === undefined) {
    throw new QueueRequestError("rubric.kind", "judge_scale needs a run with a judge");
  }
  if (!judges.includes(judge)) {
    throw new QueueRequestError("rubric.judge", `the run used ${judges.join(", ")}, not ${judge}`);
  }
  const scale = scaleOfJudge(judge) ?? "pass_fail";
  return {
    kind: "judge_scale",
    judge,
    criteria: [{ name: judge, scale, description: input.description ?? "" }],
  };
}

/** Makes a queue: its items copied from the source, its reviewers members who may label. */
export async function createQueue(
  db: Db,
  caller: QueueCaller,
  request: QueueRequest,
): Promise<QueueView> {
  const reviewers = [...new Set(request.reviewers)];
  for (const [i, userId] of reviewers.entries()) {
    const member = await findMembership(db, userId, caller.workspaceId);
    if (!member || member.role === "viewer") {
      throw new QueueRequestError(
        `reviewers.${i}`,
        member ? "a viewer cannot label" : "not a member of this workspace",
      );
    }
  }
  if (request.reviewers_per_item > reviewers.length) {
    throw new QueueRequestError(
      "reviewers_per_item",
      `${request.reviewers_per_item} reviewers per item, but the queue has ${reviewers.length}`,
    );
  }
  const { source } = request;
  let made: { items: NewAnnotationItem[]; rubric: Rubric };
  if (source.kind === "run") {
    made = await runItems(db, caller.workspaceId, source, request.rubric);
  } else if (source.kind === "arena") {
    if (request.rubric) {
      throw new QueueRequestError("rubric", "an arena's pairs are reviewed as A, B or a tie");
    }
    made = { items: await arenaItems(db, caller.workspaceId, source), rubric: PAIRWISE_RUBRIC };
  } else {
    const input = request.rubric ?? { kind: "pass_fail" as const };
    if (input.kind === "judge_scale") {
      throw new QueueRequestError(
        "rubric.kind",
        "production answers have no judge scale; use pass_fail or criteria",
      );
    }
    made = {
      items: await productionItems(db, caller.workspaceId, source),
      rubric: rubricOf(input, []),
    };
  }
  const queue = await insertAnnotationQueue(db, {
    workspaceId: caller.workspaceId,
    createdBy: caller.userId,
    name: request.name,
    kind: source.kind,
    source,
    rubric: made.rubric,
    reviewersPerItem: request.reviewers_per_item,
    reviewers,
    items: made.items,
  });
  return getQueue(db, caller, queue.id);
}

export interface QueueView {
  id: string;
  name: string;
  kind: AnnotationQueueRow["kind"];
  source: QueueSource;
  rubric: Rubric;
  reviewers_per_item: number;
  reviewers: { user_id: string; name: string }[];
  created_at: Date;
  items: number;
  complete: number;
  progress: {
    slots: number;
    slots_filled: number;
    reviewers: { user_id: string; name: string; labelled: number }[];
  };
}

/**
 * A queue the caller may see: an annotator sees only the queues assigned to them, as if the
 * others did not exist.
 */
export async function visibleQueue(db: Db, caller: QueueCaller, id: string) {
  const queue = await getAnnotationQueue(db, caller.workspaceId, id);
  if (!queue) throw new QueueNotFoundError("queue", id);
  if (caller.role === "annotator" && !queue.reviewers.some((r) => r.user_id === caller.userId)) {
    throw new QueueNotFoundError("queue", id);
  }
  return queue;
}

export async function getQueue(db: Db, caller: QueueCaller, id: string): Promise<QueueView> {
  const queue = await visibleQueue(db, caller, id);
  const progress = await annotationProgress(db, queue.id);
  return {
    id: queue.id,
    name: queue.name,
    kind: queue.kind,
    source: queue.source as QueueSource,
    rubric: queue.rubric as Rubric,
    reviewers_per_item: queue.reviewers_per_item,
    reviewers: queue.reviewers,
    created_at: queue.created_at,
    items: progress.items,
    complete: progress.complete,
    progress: {
      slots: progress.items * queue.reviewers_per_item,
      slots_filled: progress.slots_filled,
      reviewers: progress.reviewers,
    },
  };
}

export async function listQueues(db: Db, caller: QueueCaller) {
  const rows = await listAnnotationQueues(
    db,
    caller.workspaceId,
    caller.role === "annotator" ? { reviewerId: caller.userId } : {},
  );
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    kind: row.kind,
    source: row.source as QueueSource,
    rubric: row.rubric as Rubric,
    reviewers_per_item: row.reviewers_per_item,
    reviewers: row.reviewers,
    created_at: row.created_at,
    items: row.items,
    complete: row.complete,
  }));
}

export async function removeQueue(db: Db, caller: QueueCaller, id: string): Promise<void> {
  if (!(await deleteAnnotationQueue(db, caller.workspaceId, id))) {
    throw new QueueNotFoundError("queue", id);
  }
}

function personLabels(rows: Awaited<ReturnType<typeof listAnnotationLabels>>): PersonLabel[] {
  return rows.map((row) => ({
    item_id: row.item_id,
    position: row.position,
    reviewer_id: row.reviewer_id,
    reviewer_name: row.reviewer_name,
    criterion: row.criterion,
    score: row.score,
    passed: row.passed,
    choice: row.choice,
  }));
}

/** The pair an arena item compares, and the judge's pick, as stored (not as shown). */
function pairOf(item: AnnotationItemRow) {
  const subject = item.subject as { kind?: string; a?: string; b?: string; swapped?: boolean };
  if (subject.kind !== "pair") return null;
  const judge = (item.judge ?? {}) as { outcome?: string | null };
  return {
    a: String(subject.a),
    b: String(subject.b),
    swapped: subject.swapped === true,
    judge: judge.outcome ?? null,
  };
}

/** α per criterion, pairwise κ, the widest disagreements, and for pairs people against the judge. */
export async function queueAgreement(
  db: Db,
  caller: QueueCaller,
  id: string,
  options: { disagreements?: number } = {},
) {
  const queue = await visibleQueue(db, caller, id);
  const rubric = queue.rubric as Rubric;
  const labels = personLabels(await listAnnotationLabels(db, queue.id));
  const items = await listAnnotationItems(db, queue.id);
  const itemOf = new Map(items.map((item) => [item.id, item]));
  const disagreements = topDisagreements(rubric.criteria, labels, options.disagreements ?? 10).map(
    (d) => {
      const item = itemOf.get(d.item_id);
      return {
        ...d,
        question: ((item?.content ?? {}) as ItemContent).question ?? "",
        labels: labels
          .filter((l) => l.item_id === d.item_id)
          .map(({ reviewer_name, criterion, score, passed, choice }) => ({
            reviewer: reviewer_name,
            criterion,
            score,
            passed,
            choice,
          })),
      };
    },
  );
  const games =
    queue.kind === "arena"
      ? items.flatMap((item) => {
          const pair = pairOf(item);
          if (!pair) return [];
          const choices = labels
            .filter((l) => l.item_id === item.id && l.choice !== null)
            .map((l) => l.choice as "a" | "b" | "tie");
          return [{ a: pair.a, b: pair.b, judge: pair.judge, people: majorityChoice(choices) }];
        })
      : null;
  return {
    criteria: peopleAgreement(rubric.criteria, labels),
    disagreements,
    pairs: games ? pairJudgeAgreement(games) : null,
    people_standings: games ? peopleStandings(games) : null,
  };
}

/** A queue's items with every reviewer's labels, the judge's verdict and the final label. */
export async function queueItems(
  db: Db,
  caller: QueueCaller,
  id: string,
  page: { offset: number; limit: number; disagreed?: boolean },
) {
  const queue = await visibleQueue(db, caller, id);
  const rubric = queue.rubric as Rubric;
  const labels = personLabels(await listAnnotationLabels(db, queue.id));
  let items = await listAnnotationItems(db, queue.id);
  if (page.disagreed) {
    const order = topDisagreements(rubric.criteria, labels, items.length);
    const itemOf = new Map(items.map((item) => [item.id, item]));
    items = order.map((d) => itemOf.get(d.item_id) as AnnotationItemRow);
  }
  return {
    total: items.length,
    items: items.slice(page.offset, page.offset + page.limit).map((item) => ({
      ...itemView(item),
      judge: judgeView(item),
      labels: labels
        .filter((l) => l.item_id === item.id)
        .map(({ reviewer_id, reviewer_name, criterion, score, passed, choice }) => ({
          reviewer_id,
          reviewer: reviewer_name,
          criterion,
          score,
          passed,
          choice: shownChoice(item, choice),
        })),
      final: (item.final ?? null) as { labels: StoredValue[]; note: string | null } | null,
      final_at: item.final_at,
    })),
  };
}

/** An item as a reviewer sees it: no judge, no contestants. */
export function itemView(item: AnnotationItemRow) {
  const subject = item.subject as { kind?: string; result_id?: string; answer_id?: string };
  return {
    id: item.id,
    position: item.position,
    subject: {
      kind: (subject.kind ?? "result") as "result" | "pair" | "answer",
      result_id: subject.result_id ?? null,
      answer_id: subject.answer_id ?? null,
    },
    content: item.content as ItemContent,
  };
}

/** A stored choice (contestant a or b) as the reviewer saw it (answer A shown first). */
export function shownChoice(
  item: AnnotationItemRow,
  choice: "a" | "b" | "tie" | null,
): "a" | "b" | "tie" | null {
  const pair = pairOf(item);
  if (!pair || !pair.swapped || choice === null || choice === "tie") return choice;
  return choice === "a" ? "b" : "a";
}

/** A choice as shown (A is the answer shown first) stored as the contestant it names. */
export const storedChoice = shownChoice;

/** The judge's verdict on an item, turned to the sides the reviewer saw. */
export function judgeView(item: AnnotationItemRow): Record<string, unknown> | null {
  const judge = (item.judge ?? null) as Record<string, unknown> | null;
  if (!judge || !pairOf(item)) return judge;
  const outcome = judge.outcome as "a" | "b" | "tie" | null | undefined;
  return { ...judge, outcome: shownChoice(item, outcome ?? null) };
}
