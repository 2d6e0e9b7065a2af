import { existsSync } from "node:fs";
import { isLlmConfigured, loadConfig, type RagjudgeConfig } from "../../config/index.js";
import { needsLlm } from "../../judges/index.js";
import { questionsOfAnswers } from "../../evals/answers/index.js";
import { QuestionImportError } from "../../evals/questions/index.js";
import {
  EvaluationNotFoundError,
  EvaluationRequestError,
  EvaluationStateError,
  pauseEvaluation,
  resumeEvaluation,
  startEvaluation,
} from "../../evals/runs/index.js";
import { defaultProviderLimiters, errorText } from "../../llm/index.js";
import {
  type EvaluationRow,
  getEvaluation,
  isUuid,
  type QuestionSetRow,
} from "../../store/index.js";
import { prepareCollection } from "../collection.js";
import { followEvaluation, startEvaluationRuntime } from "../evaluation-runtime.js";
import { finishEvaluation } from "../evaluation-report.js";
import { EXIT } from "../exit-codes.js";
import { sessionClients, sessionLoopsConfig } from "../llm-session.js";
import {
  type ParsedAnswersFile,
  questionSetFor,
  readAnswersFile,
  storeQuestionFile,
} from "../question-file.js";
import { openStoreSession, type StoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";
import { EVAL_HELP, type EvalPlan, parseEvalArgs, planEvaluation } from "./eval-args.js";

export { EVAL_HELP };

/**
 * The question set of `--answers`: the set named by --questions (the answers are matched to it
 * when the run starts), or a new one imported from the answers file's own questions.
 */
async function answersQuestionSet(
  session: StoreSession,
  questions: string | undefined,
  answers: ParsedAnswersFile,
): Promise<QuestionSetRow> {
  if (questions) return questionSetFor(session, questions, async () => null);
  const set = await storeQuestionFile(
    session.store.db,
    session.actor,
    { name: answers.name, path: answers.path, questions: questionsOfAnswers(answers.lines) },
    null,
  );
  process.stderr.write(
    `Imported ${answers.lines.length} questions from ${answers.path} as question set "${set.name}" (${set.id})\n`,
  );
  return set;
}

export async function evalCommand(argv: string[]): Promise<number> {
  const args = parseEvalArgs(argv);
  if (args === "help") {
    process.stdout.write(`${EVAL_HELP}\n`);
    return EXIT.done;
  }
  const plan = planEvaluation(args);
  const { target } = plan;
  // Before the store opens: a mistyped file name is a usage error, not a wait for the database.
  if (
    target.kind === "start" &&
    target.questions &&
    !existsSync(target.questions) &&
    !isUuid(target.questions)
  ) {
    throw new UsageError(`--questions: no such file or question set "${target.questions}"`);
  }
  const loaded = await loadConfig(plan.configPath ? { path: plan.configPath } : {});
  if (plan.judges.some(needsLlm) && !isLlmConfigured(loaded.llm, "judge")) {
    throw new UsageError(
      `--judge ${plan.judges.join(",")} needs an LLM: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server wants one), ` +
        "or RAGJUDGE_JUDGE_BASE_URL, or an llm section in ragjudge.config.json; or use --judge offline",
    );
  }
  const session = await openStoreSession();
  const config: RagjudgeConfig = {
    ...loaded,
    rag: { ...loaded.rag, loops: sessionLoopsConfig(loaded, session) },
  };
  let runtime: Awaited<ReturnType<typeof startEvaluationRuntime>> | undefined;
  try {
    const { workspaceId } = session.actor;
    const db = session.store.db;
    const { baseline } = plan.report;
    if (baseline && !(await getEvaluation(db, workspaceId, baseline))) {
      throw new UsageError(`--baseline: evaluation ${baseline} not found`);
    }
    let row: EvaluationRow;
    if (target.kind === "resume") {
      const found = await getEvaluation(db, workspaceId, target.evaluationId);
      if (!found) throw new UsageError(`--resume: evaluation ${target.evaluationId} not found`);
      row = found;
    } else {
      row = await startFromPlan(session, config, plan, target, (started) => (runtime = started));
    }
    const live = row.status === "PENDING" || row.status === "RUNNING" || row.status === "PAUSED";
    if (live) {
      runtime ??= await startEvaluationRuntime(session, config, plan.runtime);
      if (target.kind === "resume") {
        row = await reattach(runtime.deps, session, row, target.maxCostUsd);
      }
      const outcome = await followEvaluation(runtime, workspaceId, row.id);
      row = outcome.row;
      if (runtime.worker) reportSettledLimits();
      if (outcome.interrupted) {
        process.stderr.write(
          `\nPaused evaluation ${row.id} at ${row.completed_questions}/${row.total_questions}.\n` +
            `Resume with: ragjudge eval --resume ${row.id}\n`,
        );
        return EXIT.interrupted;
      }
    }
    if (row.status === "PAUSED") {
      // A worker that paused the run says why (a reached cost limit).
      const paused = row.status_reason ? `paused: ${row.status_reason},` : "was paused";
      process.stderr.write(
        `Evaluation ${row.id} ${paused} at ${row.completed_questions}/${row.total_questions}; ` +
          `resume with: ragjudge eval --resume ${row.id}\n`,
      );
    }
    return await finishEvaluation(session, row, plan.report);
  } catch (error) {
    return handleRunError(error, target.kind === "start" ? target.answers : undefined);
  } finally {
    await runtime?.stop();
    await session.close();
  }
}

/**
 * Starts the plan's run: its question set (a file imported now, an existing set, or the answers
 * file's own questions), its collection, then the run itself on a runtime started here and handed
 * to `onRuntime` at once, so the caller stops it whatever happens next.
 */
async function startFromPlan(
  session: StoreSession,
  config: RagjudgeConfig,
  plan: EvalPlan,
  target: Extract<EvalPlan["target"], { kind: "start" }>,
  onRuntime: (runtime: Awaited<ReturnType<typeof startEvaluationRuntime>>) => void,
): Promise<EvaluationRow> {
  // Parse first: a bad answers file stops the command before anything is stored.
  if (target.answers && !existsSync(target.answers)) {
    throw new UsageError(`--answers: no such file "${target.answers}"`);
  }
  const answers = target.answers ? await readAnswersFile(target.answers) : undefined;
  const set = answers
    ? await answersQuestionSet(session, target.questions, answers)
    : await questionSetFor(session, target.questions ?? "", () =>
        prepareCollection(session, config, target.collection, () =>
          sessionClients(config, session, { noCache: plan.noCache }),
        ),
      );
  const runtime = await startEvaluationRuntime(session, config, plan.runtime);
  onRuntime(runtime);
  const row = await startEvaluation(
    runtime.deps,
    session.actor,
    {
      question_set_id: set.id,
      ...target.request,
      ...(answers ? { answers: answers.lines } : {}),
    },
    config,
    { via: "cli" },
  );
  process.stderr.write(
    `Evaluation ${row.id}: ${row.total_questions} questions, bot ${row.bot_id}, judges ${plan.judges.join(",")}\n`,
  );
  return row;
}

/** Where this process's per-provider LLM limits settled, so a user can size max_concurrency. */
function reportSettledLimits(): void {
  for (const { provider, limit, max, rate_limited } of defaultProviderLimiters.snapshot()) {
    process.stderr.write(
      `LLM concurrency for ${provider}: settled at ${limit} (max ${max}; ${rate_limited} answers were 429)\n`,
    );
  }
}

/**
 * --resume after a crash or Ctrl-C: a paused run is resumed. A run left RUNNING by a process that
 * died is paused and resumed at once when the store is embedded (no other process can hold it), so
 * its orphaned items restart now rather than when their jobs expire.
 */
async function reattach(
  deps: Parameters<typeof resumeEvaluation>[0],
  session: StoreSession,
  row: EvaluationRow,
  maxCostUsd: number | null | undefined,
): Promise<EvaluationRow> {
  const options = maxCostUsd !== undefined ? { maxCostUsd } : {};
  const { workspaceId } = session.actor;
  if (row.status === "RUNNING" && session.store.kind === "pglite") {
    await pauseEvaluation(deps, workspaceId, row.id);
    return resumeEvaluation(deps, workspaceId, row.id, options);
  }
  if (row.status === "PAUSED") return resumeEvaluation(deps, workspaceId, row.id, options);
  return row;
}

function handleRunError(error: unknown, answersPath?: string): number {
  if (QuestionImportError.isInstance(error)) {
    const what = answersPath ? "the answers file" : "the question file";
    // A JSONL row is a line of the file: say so, so an editor's line number finds it.
    const unit = answersPath?.toLowerCase().endsWith(".jsonl") ? "line" : "row";
    if (error.rows.length === 0) {
      process.stderr.write(`ragjudge eval: ${what} was not imported: ${error.message}\n`);
      return EXIT.usage;
    }
    const bad = new Set(error.rows.map((row) => row.row)).size;
    process.stderr.write(
      `ragjudge eval: ${what} was not imported (${bad} invalid ${unit}${bad === 1 ? "" : "s"}; nothing was stored):\n`,
    );
    for (const row of error.rows) {
      process.stderr.write(
        row.row > 0 ? `  ${unit} ${row.row}: ${row.field}: ${row.message}\n` : `  ${row.message}\n`,
      );
    }
    return EXIT.usage;
  }
  if (
    error instanceof EvaluationRequestError ||
    error instanceof EvaluationNotFoundError ||
    error instanceof EvaluationStateError
  ) {
    process.stderr.write(`ragjudge eval: ${errorText(error)}\n`);
    return EXIT.usage;
  }
  throw error;
}
