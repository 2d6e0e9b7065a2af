import type { RagjudgeConfig } from "../../config/index.js";
import { needsLlm } from "../../judges/index.js";
import { type Jobs, QUEUES } from "../../jobs/index.js";
import {
  type BotNetworkConfig,
  BotNetworkPolicyError,
  checkBotUrl,
  restrictedBotNetwork,
} from "../bots/index.js";
import {
  type Actor,
  createEvaluation,
  type Db,
  type EvaluationRow,
  type EvaluationStatus,
  findCollectionByName,
  getCollection,
  getBot,
  getEvaluation,
  getQuestionSet,
  getQuestionSetVersion,
  type VersionQuestion,
  type QuestionSetRow,
  recountEvaluation,
  resetResults,
  setEvaluationCostLimit,
  transitionEvaluation,
} from "../../store/index.js";
import {
  AnswersRejectedError,
  matchAnswersToSet,
  questionsOfAnswers,
  type SuppliedAnswer,
  validateAnswerLines,
} from "../answers/index.js";
import { createQuestionSetWithQuestions } from "../question-sets/index.js";
import { QuestionImportError } from "../questions/index.js";
import {
  type BotConfig,
  botIdOf,
  type EvaluationRequest,
  EvaluationRequestSchema,
  evaluationSnapshot,
  judgeModelIdOf,
  type SnapshotBot,
  type SubmittedVia,
} from "./config.js";

/** The evaluation, question set or collection is not the user's (or does not exist): HTTP 404. */
export class EvaluationNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "EvaluationNotFoundError";
  constructor(
    readonly what: "evaluation" | "result" | "question set" | "collection" | "bot",
    readonly id: string,
  ) {
    super(`${what} ${id} not found`);
  }
}

/** The run's status does not allow the operation (e.g. resuming a cancelled run): HTTP 409. */
export class EvaluationStateError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_state";
  override readonly name = "EvaluationStateError";
  constructor(
    readonly operation: string,
    readonly status: EvaluationStatus,
  ) {
    super(`cannot ${operation} an evaluation that is ${status}`);
  }
}

/** The request is valid JSON but unusable (e.g. the reference judge on questions with no ground truth). */
export class EvaluationRequestError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "EvaluationRequestError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export interface ControlDeps {
  db: Db;
  jobs: Pick<Jobs, "send">;
}

async function launch(deps: ControlDeps, evaluationId: string): Promise<void> {
  await deps.jobs.send(QUEUES.evaluationLaunch, [{ evaluation_id: evaluationId }]);
}

async function resolveCollectionId(db: Db, workspaceId: string, ref: string): Promise<string> {
  const found =
    (await getCollection(db, workspaceId, ref)) ??
    (await findCollectionByName(db, workspaceId, ref));
  if (!found) throw new EvaluationNotFoundError("collection", ref);
  return found.id;
}

export interface StartOptions {
  /**
   * `api` for a run an API user asks for: its HTTP bot must pass the operator's network policy
   * (`config.bots`) and gets only the user's registered credentials. `cli`: the operator's own
   * machine, where any address may be reached (see SubmittedViaSchema). No default: the CLI opts
   * in to the open network, so a caller that forgets cannot hand it to an API user.
   */
  via: SubmittedVia;
  /** The version of the question set to run on (an arena's); default its latest. */
  questionSetVersion?: number;
}

/**
 * The request's bot as the run will store it: a registered bot's URL filled in (404 for another
 * user's), and for API runs, a URL the network policy refuses is a 400 naming the policy.
 */
async function resolveBot(
  db: Db,
  workspaceId: string,
  bot: BotConfig,
  via: SubmittedVia,
  network: BotNetworkConfig | undefined,
): Promise<SnapshotBot> {
  if (bot.kind === "builtin" || bot.kind === "answers") return bot;
  let resolved: SnapshotBot & { kind: "http" };
  let field: string;
  if (bot.bot_id !== undefined) {
    const registered = await getBot(db, workspaceId, bot.bot_id);
    if (!registered) throw new EvaluationNotFoundError("bot", bot.bot_id);
    resolved = { ...bot, bot_id: registered.id, url: registered.url };
    field = "bot.bot_id";
  } else {
    resolved = { ...bot, url: bot.url ?? "" };
    field = "bot.url";
  }
  if (via === "api") {
    try {
      await checkBotUrl(new URL(resolved.url), restrictedBotNetwork(network));
    } catch (error) {
      if (error instanceof BotNetworkPolicyError) {
        throw new EvaluationRequestError(field, error.message);
      }
      throw error;
    }
  }
  return resolved;
}

/**
 * Seed 003 flow 2: creates a PENDING evaluation with a snapshot of its configuration and a copy of
 * its questions, and sends its launch job. Returns at once; workers do the rest.
 */
export async function startEvaluation(
  deps: ControlDeps,
  actor: Actor,
  input: unknown,
  config: Pick<RagjudgeConfig, "llm" | "judges" | "gate" | "rag"> &
    Partial<Pick<RagjudgeConfig, "bots">>,
  options: StartOptions,
): Promise<EvaluationRow> {
  // A JavaScript caller (or a cast) that leaves it out gets the restrictive side.
  const via: SubmittedVia = options?.via === "cli" ? "cli" : "api";
  const request: EvaluationRequest = EvaluationRequestSchema.parse(input);
  const { workspaceId } = actor;
  const { set, version, questions, supplied } = await questionsToRun(
    deps.db,
    actor,
    request,
    options?.questionSetVersion,
  );
  const collectionRef = request.collection_id ?? set.collection_id ?? null;
  if (request.bot.kind === "builtin" && !collectionRef) {
    throw new EvaluationRequestError("collection_id", "the built-in bot needs a collection");
  }
  const collectionId = collectionRef
    ? await resolveCollectionId(deps.db, workspaceId, collectionRef)
    : null;
  if (questions.length === 0) {
    throw new EvaluationRequestError("question_set_id", "the question set has no questions");
  }
  const bot = await resolveBot(deps.db, workspaceId, request.bot, via, config.bots);
  const snapshot = evaluationSnapshot(request, config, collectionId, { bot, submittedVia: via });
  if (snapshot.judges.some(needsLlm) && !snapshot.models.judge) {
    throw new EvaluationRequestError(
      "judges",
      "the review, rubric and reference judges need an LLM: configure the judge role (RAGJUDGE_JUDGE_MODEL)",
    );
  }
  const row = await createEvaluation(deps.db, workspaceId, {
    user_id: actor.userId,
    name: request.name ?? `${set.name} · ${new Date().toISOString().slice(0, 16)}`,
    collection_id: collectionId,
    question_set_id: set.id,
    question_set_version_id: version.id,
    question_set_version: version.number,
    bot_id: botIdOf(snapshot.bot),
    judge_llm_model_id: judgeModelIdOf(snapshot),
    config: snapshot,
    questions: questions.map((q) => ({
      question_id: q.id,
      question_type: q.question_type,
      question_text: q.question_text,
      ground_truth: q.ground_truth,
      ground_truths: q.ground_truths ?? null,
      reference_context: q.reference_context,
      relevant_ids: q.relevant_ids ?? null,
      reference_contexts: q.reference_contexts ?? null,
      ...(supplied ? { supplied_answer: supplied.get(q.id) ?? null } : {}),
    })),
  });
  await launch(deps, row.id);
  return row;
}

/**
 * The set and questions a run covers, and for precomputed answers the answer of each question:
 * answers with a question set are matched to it by text; answers alone bring a new set (their
 * questions and references, imported all or nothing).
 */
async function questionsToRun(
  db: Db,
  actor: Actor,
  request: EvaluationRequest,
  versionNumber?: number,
): Promise<{
  set: QuestionSetRow;
  version: { id: string; number: number };
  questions: RunQuestion[];
  supplied?: Map<string, SuppliedAnswer>;
}> {
  if (request.question_set_id) {
    const set = await getQuestionSet(db, actor.workspaceId, request.question_set_id);
    if (!set) throw new EvaluationNotFoundError("question set", request.question_set_id);
    const pinned = await latestQuestionsOf(db, actor.workspaceId, set.id, versionNumber);
    if (!request.answers) return { set, ...pinned };
    const answers = request.answers;
    return {
      set,
      ...pinned,
      supplied: rejectingAnswers(() => matchAnswersToSet(pinned.questions, answers)),
    };
  }
  const answers = request.answers ?? [];
  // Repeats are named before anything is written.
  rejectingAnswers(() => validateAnswerLines(answers.map((value, i) => ({ row: i + 1, value }))));
  const created = await createQuestionSetWithQuestions(db, actor, {
    name: request.name ?? `answers · ${new Date().toISOString().slice(0, 16)}`,
    description: "Imported with precomputed answers",
    ...(request.collection_id ? { collection_id: request.collection_id } : {}),
    questions: questionsOfAnswers(answers),
  });
  const pinned = await latestQuestionsOf(db, actor.workspaceId, created.set.id);
  return {
    set: created.set,
    ...pinned,
    supplied: rejectingAnswers(() => matchAnswersToSet(pinned.questions, answers)),
  };
}

/** A question as a run copies it, with its place in the set. */
export type RunQuestion = VersionQuestion & { position: number };

/**
 * The set's latest version (or the one numbered) and its questions: a run (or an arena) copies
 * exactly the questions of the version it records, whatever changes the set meanwhile.
 */
export async function latestQuestionsOf(
  db: Db,
  workspaceId: string,
  setId: string,
  number?: number,
): Promise<{ version: { id: string; number: number }; questions: RunQuestion[] }> {
  const version = await getQuestionSetVersion(db, workspaceId, setId, number);
  if (!version) throw new EvaluationNotFoundError("question set", setId);
  return {
    version: { id: version.id, number: version.number },
    questions: version.questions.map((q, position) => ({ ...q, position })),
  };
}

/** Bad `answers` throw a QuestionImportError; it is re-thrown as the answers' own error type. */
function rejectingAnswers<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (QuestionImportError.isInstance(error)) throw AnswersRejectedError.of(error);
    throw error;
  }
}

async function mustGet(db: Db, workspaceId: string, id: string): Promise<EvaluationRow> {
  const row = await getEvaluation(db, workspaceId, id);
  if (!row) throw new EvaluationNotFoundError("evaluation", id);
  return row;
}

/** Moves a run or explains why it cannot move (404 or 409). */
async function move(
  deps: ControlDeps,
  workspaceId: string,
  id: string,
  operation: string,
  from: readonly EvaluationStatus[],
  to: EvaluationStatus,
): Promise<EvaluationRow> {
  // A person's pause or resume replaces whatever reason a worker gave (a reached cost limit).
  const moved = await transitionEvaluation(deps.db, id, from, to, {
    workspaceId,
    status_reason: null,
  });
  if (moved) return moved;
  const row = await mustGet(deps.db, workspaceId, id);
  throw new EvaluationStateError(operation, row.status);
}

/** Stops new work at once; workers abort the calls in flight and put their items back. */
export function pauseEvaluation(deps: ControlDeps, workspaceId: string, id: string) {
  return move(deps, workspaceId, id, "pause", ["PENDING", "RUNNING"], "PAUSED");
}

/** Final: nothing moves a cancelled run again. */
export function cancelEvaluation(deps: ControlDeps, workspaceId: string, id: string) {
  return move(deps, workspaceId, id, "cancel", ["PENDING", "RUNNING", "PAUSED"], "CANCELLED");
}

/**
 * Re-enqueues only the unfinished items; `maxCostUsd` replaces the run's cost limit (null removes
 * it), so a run paused at its limit can go on under a higher one.
 */
export async function resumeEvaluation(
  deps: ControlDeps,
  workspaceId: string,
  id: string,
  options: { maxCostUsd?: number | null } = {},
): Promise<EvaluationRow> {
  // A new cost limit first (a run paused at its limit goes on only under a higher one).
  if (options.maxCostUsd !== undefined) {
    await setEvaluationCostLimit(deps.db, workspaceId, id, options.maxCostUsd);
  }
  await move(deps, workspaceId, id, "resume", ["PAUSED"], "RUNNING");
  // Items a crashed or aborted worker left RUNNING are taken again.
  await resetResults(deps.db, id, ["RUNNING"]);
  const row = (await recountEvaluation(deps.db, id)) ?? (await mustGet(deps.db, workspaceId, id));
  if (row.status === "RUNNING") await launch(deps, id);
  return row;
}

/**
 * Runs failed items again (`failed`: BOT_ERROR and JUDGE_ERROR), or every item (`all`), of a
 * finished run. A cancelled run stays cancelled.
 */
export async function retryEvaluation(
  deps: ControlDeps,
  workspaceId: string,
  id: string,
  scope: "failed" | "all",
): Promise<EvaluationRow> {
  const row = await mustGet(deps.db, workspaceId, id);
  if (row.status !== "COMPLETED" && row.status !== "FAILED") {
    throw new EvaluationStateError("retry", row.status);
  }
  await move(deps, workspaceId, id, "retry", ["COMPLETED", "FAILED"], "PENDING");
  await resetResults(
    deps.db,
    id,
    scope === "all"
      ? ["SCORED", "BOT_ERROR", "JUDGE_ERROR", "RUNNING"]
      : ["BOT_ERROR", "JUDGE_ERROR"],
  );
  await transitionEvaluation(deps.db, id, ["PENDING"], "PENDING", { status_reason: null });
  const recounted = (await recountEvaluation(deps.db, id)) ?? row;
  await launch(deps, id);
  return recounted;
}
