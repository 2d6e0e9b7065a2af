import { isLlmConfigured, type RagjudgeConfig } from "../../config/index.js";
import {
  type CostTotal,
  costTotalOf,
  DEFAULT_PRICES,
  type LlmClient,
  type PricedUsage,
  pricedUsage,
  resolveModelConfig,
} from "../../llm/index.js";
import {
  type Actor,
  type ArenaRow,
  createArena,
  deleteArena,
  deleteEvaluation,
  finishArena,
  getArena,
  getEvaluation,
  getQuestionSet,
  listArenas,
  markArena,
  listEvaluationResults,
  listQuestions,
} from "../../store/index.js";
import { matchAnswersToSet } from "../answers/index.js";
import { QuestionImportError, referencesOf } from "../questions/index.js";
import {
  type ControlDeps,
  EvaluationNotFoundError,
  latestQuestionsOf,
  type RunQuestion,
  EvaluationRequestError,
  EvaluationSnapshotSchema,
  runCostOf,
  type StartOptions,
  startEvaluation,
} from "../runs/index.js";
import { collectContestant, type ContestantData, RADAR_DIMENSIONS } from "./collect.js";
import { nothingCompared } from "./nothing-compared.js";
import { type PairOutcomes, scoreOutcomes } from "./outcomes.js";
import { type PairwiseRun, runPairwise } from "./pairwise-run.js";
import {
  type ArenaRequest,
  ArenaRequestSchema,
  type ArenaSnapshot,
  ArenaSnapshotSchema,
} from "./request.js";
import { computeStandings, type Standings } from "./standings.js";
import { QUEUES } from "../../jobs/index.js";
import { codedMessage } from "../../text/index.js";

// Seed 002 section 3.2's Auto-Arena (`run_arena`) over the store: every contestant is an
// evaluation run on the arena's question set (an existing one reused, or one started here), and
// the arena compares their stored results once every run has finished.

type RunConfig = Pick<RagjudgeConfig, "llm" | "judges" | "gate" | "rag"> &
  Partial<Pick<RagjudgeConfig, "bots" | "prices">>;

export class ArenaNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "ArenaNotFoundError";
  constructor(readonly id: string) {
    super(`arena ${id} not found`);
  }
}

/** One contestant could not join (its answers do not fit the set, its run is on another set...). */
export class ArenaContestantError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "ArenaContestantError";
  constructor(
    readonly index: number,
    readonly contestant: string,
    readonly reason: Error,
  ) {
    super(`contestant "${contestant}": ${reason.message}`);
  }
}

const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED"]);

/** The judge each contestant's own run uses: the arena's score judge, or offline for pairwise. */
function runJudgeOf(request: Pick<ArenaRequest, "judge">) {
  return request.judge === "pairwise" ? "offline" : request.judge;
}

export interface ArenaStartOptions extends StartOptions {
  /**
   * Who compares the finished runs: `job` (default) sends an `arena-compare` job, so a worker
   * does it durably whatever happens to this process; `caller` leaves it to the caller
   * (`ragjudge arena` compares in-process and prints the result).
   */
  compute?: "job" | "caller";
}

/**
 * Checks every contestant before any run starts (all or nothing), then starts the runs that are
 * needed and stores the arena, PENDING until its runs have finished and it is compared
 * (RUNNING while that happens). `configFor(i)` lets a built-in contestant run under its own
 * configuration (models, loops).
 */
export async function startArena(
  deps: ControlDeps,
  actor: Actor,
  input: unknown,
  config: RunConfig,
  configFor: (index: number) => RunConfig = () => config,
  /** `via: api` for an arena an API user asks for: its HTTP bots pass the operator's network policy. */
  options: ArenaStartOptions,
): Promise<ArenaRow> {
  const { compute = "job", ...startOptions } = options;
  const request = ArenaRequestSchema.parse(input);
  const { workspaceId } = actor;
  const set = await getQuestionSet(deps.db, workspaceId, request.question_set_id);
  if (!set) throw new EvaluationNotFoundError("question set", request.question_set_id);
  // The arena and every contestant it starts run on this version of the set.
  const { version, questions } = await latestQuestionsOf(deps.db, workspaceId, set.id);
  if (questions.length === 0) {
    throw new EvaluationRequestError("question_set_id", "the question set has no questions");
  }
  const judge = runJudgeOf(request);
  const needsLlm = request.judge !== "offline";
  const judgeConfigured = isLlmConfigured(config.llm, "judge");
  if (needsLlm && !judgeConfigured) {
    throw new EvaluationRequestError(
      "judge",
      `the ${request.judge} judge needs an LLM: configure the judge role (RAGJUDGE_JUDGE_MODEL), or use the offline judge`,
    );
  }
  await checkContestants(deps, workspaceId, request, set.id, set.collection_id, {
    version,
    questions,
  });

  const name = request.name ?? `arena · ${set.name} · ${new Date().toISOString().slice(0, 16)}`;
  const contestants: ArenaSnapshot["contestants"] = [];
  for (const [i, c] of request.contestants.entries()) {
    if (c.evaluation_id) {
      const row = await getEvaluation(deps.db, workspaceId, c.evaluation_id);
      contestants.push({
        name: c.name,
        evaluation_id: c.evaluation_id,
        source: "evaluation",
        bot_id: row?.bot_id ?? "",
      });
      continue;
    }
    const row = await startEvaluation(
      deps,
      actor,
      {
        name: `${name} · ${c.name}`,
        question_set_id: set.id,
        judges: [judge],
        no_cache: request.no_cache,
        ...(c.answers ? { answers: c.answers } : {}),
        ...(c.bot ? { bot: c.bot } : {}),
        ...(c.collection_id ? { collection_id: c.collection_id } : {}),
      },
      c.loops ? { ...configFor(i), rag: { ...configFor(i).rag, loops: c.loops } } : configFor(i),
      { ...startOptions, questionSetVersion: version.number },
    ).catch((error: unknown) => {
      // Another user's bot is a 404 like any other id; the rest is this contestant's fault.
      if (error instanceof EvaluationNotFoundError || !(error instanceof Error)) throw error;
      throw new ArenaContestantError(i, c.name, error);
    });
    contestants.push({
      name: c.name,
      evaluation_id: row.id,
      source: c.answers ? "answers" : c.bot?.kind === "http" ? "http" : "builtin",
      bot_id: row.bot_id,
    });
  }
  const snapshot: ArenaSnapshot = {
    question_set_id: set.id,
    contestants,
    judge: request.judge,
    judge_model:
      request.judge === "pairwise" ? resolveModelConfig(config.llm, "judge").model : null,
    tolerance: request.tolerance,
    rounds: request.rounds,
    seed: request.seed,
    language: request.language,
    no_cache: request.no_cache,
    compute,
    prices: config.prices ?? DEFAULT_PRICES,
  };
  const row = await createArena(deps.db, workspaceId, {
    name,
    question_set_id: set.id,
    question_set_version_id: version.id,
    question_set_version: version.number,
    config: snapshot,
  });
  if (compute === "job") await deps.jobs.send(QUEUES.arenaCompare, [{ arena_id: row.id }]);
  return row;
}

async function checkContestants(
  deps: ControlDeps,
  workspaceId: string,
  request: ArenaRequest,
  setId: string,
  setCollection: string | null,
  pinned: { version: { id: string; number: number }; questions: readonly RunQuestion[] },
): Promise<void> {
  const { version, questions } = pinned;
  for (const [i, c] of request.contestants.entries()) {
    const fail = (field: string, message: string) =>
      new ArenaContestantError(
        i,
        c.name,
        new EvaluationRequestError(`contestants.${i}.${field}`, message),
      );
    if (c.evaluation_id) {
      const row = await getEvaluation(deps.db, workspaceId, c.evaluation_id);
      if (!row) throw new EvaluationNotFoundError("evaluation", c.evaluation_id);
      if (row.question_set_id !== setId) {
        throw fail("evaluation_id", `evaluation ${row.id} ran on another question set`);
      }
      // Pairs are judged question by question: every contestant must have answered the same ones.
      if (row.question_set_version_id !== version.id) {
        throw fail(
          "evaluation_id",
          `evaluation ${row.id} ran on ${row.question_set_version === null ? "the set before versions" : `version ${row.question_set_version}`} of the question set; the arena runs on its latest, version ${version.number}`,
        );
      }
      const judges = EvaluationSnapshotSchema.safeParse(row.config).data?.judges ?? [];
      if (request.judge !== "pairwise" && !judges.includes(request.judge)) {
        throw fail(
          "evaluation_id",
          `evaluation ${row.id} has no ${request.judge} scores (its judges: ${judges.join(", ") || "none"})`,
        );
      }
    } else if (c.answers) {
      try {
        matchAnswersToSet(questions, c.answers);
      } catch (error) {
        if (!QuestionImportError.isInstance(error)) throw error;
        throw new ArenaContestantError(i, c.name, error);
      }
    } else if (c.bot?.kind === "builtin" && !c.collection_id && !setCollection) {
      throw fail("collection_id", "the built-in bot needs a collection (the set has none)");
    }
  }
}

export interface CompleteArenaOptions {
  /** The judge role's client: the pairwise judge needs it. */
  judgeClient?: LlmClient;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** The arena's stored results (the JSON the CLI and API print). */
export interface ArenaResults extends Omit<Standings, "contestants"> {
  judge: ArenaSnapshot["judge"];
  questions: number;
  tolerance: number | null;
  contestants: (Standings["contestants"][number] & {
    evaluation_id: string;
    answered: number;
    scored: number;
    radar: ContestantData["radar"];
    /** What the contestant's own run cost (its bot and its judges; evals/runs summary.cost.total). */
    cost?: CostTotal;
  })[];
  /** The pairwise judge's calls, priced (pairwise judge only). */
  judge_cost?: { by_model: PricedUsage[]; total: CostTotal };
  /** Pairwise judge only. */
  flip_rate?: PairwiseRun["flip_rate"];
  judge_errors?: PairwiseRun["errors"];
  examples?: PairwiseRun["examples"];
  /** Pairwise judge only (arenas compared since issue 23): every pair's verdict per question. */
  verdicts?: PairwiseRun["verdicts"];
}

/**
 * Compares the contestants once every run has finished; returns the row as it stands (PENDING
 * while runs are still going; FAILED when one of them failed or was cancelled). The comparison
 * marks the row RUNNING first; a crash there leaves it RUNNING, and the retried job compares again.
 */
export async function completeArena(
  deps: Pick<ControlDeps, "db">,
  workspaceId: string,
  id: string,
  options: CompleteArenaOptions = {},
): Promise<ArenaRow> {
  const row = await mustGetArena(deps.db, workspaceId, id);
  if (row.status !== "PENDING" && row.status !== "RUNNING") return row;
  const snapshot = ArenaSnapshotSchema.parse(row.config);
  const runs = await Promise.all(
    snapshot.contestants.map((c) => getEvaluation(deps.db, workspaceId, c.evaluation_id)),
  );
  const broken = runs.findIndex(
    (run) => !run || run.status === "FAILED" || run.status === "CANCELLED",
  );
  if (broken >= 0) {
    const run = runs[broken];
    const name = snapshot.contestants[broken]!.name;
    const reason = !run
      ? codedMessage("arena.contestant_deleted", { name })
      : run.status === "CANCELLED"
        ? codedMessage("arena.contestant_cancelled", { name })
        : run.status_reason
          ? codedMessage("arena.contestant_failed", { name, reason: run.status_reason })
          : codedMessage("arena.contestant_failed_unexplained", { name });
    return (await finishArena(deps.db, row.id, { status: "FAILED", reason })) ?? row;
  }
  if (!runs.every((run) => run && FINAL.has(run.status))) return row;

  const marked = await markArena(deps.db, row.id, "RUNNING");
  if (!marked) return mustGetArena(deps.db, workspaceId, id);
  try {
    const results = await compareRuns(deps, workspaceId, snapshot, options);
    const nothing = nothingCompared(results);
    if (nothing) {
      return (await finishArena(deps.db, row.id, { status: "FAILED", reason: nothing })) ?? row;
    }
    return (await finishArena(deps.db, row.id, { status: "COMPLETED", results })) ?? row;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    const reason = codedMessage("arena.error", {
      error: error instanceof Error ? error.message : String(error),
    });
    return (await finishArena(deps.db, row.id, { status: "FAILED", reason })) ?? row;
  }
}

async function compareRuns(
  deps: Pick<ControlDeps, "db">,
  workspaceId: string,
  snapshot: ArenaSnapshot,
  options: CompleteArenaOptions,
): Promise<ArenaResults> {
  const questions = await listQuestions(deps.db, workspaceId, snapshot.question_set_id);
  const ids = questions.map((q) => q.id);
  const names = snapshot.contestants.map((c) => c.name);
  const scoreJudge = snapshot.judge === "pairwise" ? null : snapshot.judge;
  const costs: CostTotal[] = [];
  const data = await Promise.all(
    snapshot.contestants.map(async (c, i) => {
      const rows = await listEvaluationResults(deps.db, workspaceId, c.evaluation_id);
      costs[i] = runCostOf(rows.map((row) => row.usage)).total;
      return collectContestant(ids, rows, scoreJudge);
    }),
  );
  let pairs: PairOutcomes[];
  let pairwise: PairwiseRun | undefined;
  if (snapshot.judge === "pairwise") {
    if (!options.judgeClient)
      throw new Error("the pairwise judge needs the judge LLM, which is not configured");
    pairwise = await runPairwise({
      names,
      data,
      questions: questions.map((q) => ({
        id: q.id,
        text: q.question_text,
        references: referencesOf(q),
      })),
      client: options.judgeClient,
      language: snapshot.language,
      noCache: snapshot.no_cache,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    pairs = pairwise.pairs;
  } else {
    pairs = [];
    for (let a = 0; a < names.length; a++) {
      for (let b = a + 1; b < names.length; b++) {
        pairs.push({
          a,
          b,
          outcomes: scoreOutcomes(data[a]!.scores, data[b]!.scores, snapshot.tolerance),
        });
      }
    }
  }
  const standings = computeStandings({
    names,
    pairs,
    lengths: data.map((d) => d.lengths),
    ...(scoreJudge ? { scores: data.map((d) => d.scores) } : {}),
    rounds: snapshot.rounds,
    seed: snapshot.seed,
  });
  const index = new Map(names.map((n, i) => [n, i]));
  return {
    ...standings,
    judge: snapshot.judge,
    questions: questions.length,
    tolerance: scoreJudge ? snapshot.tolerance : null,
    contestants: standings.contestants.map((c) => {
      const i = index.get(c.name)!;
      const d = data[i]!;
      return {
        ...c,
        evaluation_id: snapshot.contestants[i]!.evaluation_id,
        answered: d.answered,
        scored: scoreJudge ? d.scored : d.answered,
        radar: d.radar,
        cost: costs[i]!,
      };
    }),
    ...(pairwise
      ? {
          flip_rate: pairwise.flip_rate,
          judge_errors: pairwise.errors,
          examples: pairwise.examples,
          verdicts: pairwise.verdicts,
          judge_cost: pricedJudge(pairwise, snapshot.prices),
        }
      : {}),
  };
}

function pricedJudge(pairwise: PairwiseRun, prices: ArenaSnapshot["prices"]) {
  const byModel = pairwise.usage.map((usage) => pricedUsage(usage, prices));
  return { by_model: byModel, total: costTotalOf(byModel) };
}

async function mustGetArena(
  db: ControlDeps["db"],
  workspaceId: string,
  id: string,
): Promise<ArenaRow> {
  const row = await getArena(db, workspaceId, id);
  if (!row) throw new ArenaNotFoundError(id);
  return row;
}

export { mustGetArena as getArenaRow };

export function listArenaRows(
  db: ControlDeps["db"],
  workspaceId: string,
  options: { limit?: number; offset?: number } = {},
) {
  return listArenas(db, workspaceId, options);
}

/**
 * Deletes the user's arena and the runs it started for its contestants (answers files, bots run
 * for it: they exist only for this arena); a reused run stays. Another user's id is not found.
 */
export async function deleteArenaWithRuns(
  db: ControlDeps["db"],
  workspaceId: string,
  id: string,
): Promise<void> {
  const row = await deleteArena(db, workspaceId, id);
  if (!row) throw new ArenaNotFoundError(id);
  const snapshot = ArenaSnapshotSchema.safeParse(row.config).data;
  for (const c of snapshot?.contestants ?? []) {
    if (c.source !== "evaluation") await deleteEvaluation(db, workspaceId, c.evaluation_id);
  }
}

/**
 * Which of these runs an arena started for one of its contestants, and that arena: the run list
 * groups them under it. Read from the user's arenas' snapshots (a person has a handful).
 */
export async function arenaOwnRuns(
  db: ControlDeps["db"],
  workspaceId: string,
): Promise<Map<string, { id: string; name: string; contestant: string }>> {
  const owners = new Map<string, { id: string; name: string; contestant: string }>();
  for (const row of await listArenas(db, workspaceId, { limit: 1000 })) {
    const snapshot = ArenaSnapshotSchema.safeParse(row.config).data;
    for (const c of snapshot?.contestants ?? []) {
      if (c.source !== "evaluation")
        owners.set(c.evaluation_id, { id: row.id, name: row.name, contestant: c.name });
    }
  }
  return owners;
}

export { RADAR_DIMENSIONS };
