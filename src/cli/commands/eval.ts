import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { isLlmConfigured, loadConfig, type RagjudgeConfig } from "../../config/index.js";
import { needsLlm } from "../../judges/index.js";
import { questionsOfAnswers } from "../../evals/answers/index.js";
import { QuestionImportError } from "../../evals/questions/index.js";
import {
  buildReport,
  checkThresholds,
  compareToBaseline,
  type EvaluationReport,
  jsonReportChunks,
  renderReport,
  renderSummaryTable,
  withLabels,
} from "../../evals/reports/index.js";
import {
  EvaluationNotFoundError,
  EvaluationRequestError,
  EvaluationStateError,
  pauseEvaluation,
  resumeEvaluation,
  startEvaluation,
} from "../../evals/runs/index.js";
import { defaultProviderLimiters } from "../../llm/index.js";
import { createBuiltinBot } from "../../rag/index.js";
import {
  type Db,
  type EvaluationRow,
  getEvaluation,
  isUuid,
  listHumanLabels,
  listReportRows,
  type QuestionSetRow,
} from "../../store/index.js";
import { followEvaluation, startEvaluationRuntime } from "../evaluation-runtime.js";
import { EXIT, incompleteReason } from "../exit-codes.js";
import { sessionClients, sessionLoopsConfig } from "../llm-session.js";
import {
  type ParsedAnswersFile,
  questionSetFor,
  readAnswersFile,
  storeQuestionFile,
} from "../question-file.js";
import { openStoreSession, type StoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";
import { EVAL_HELP, type EvalArgs, parseEvalArgs } from "./eval-args.js";
import { errorText } from "../../llm/index.js";

export { EVAL_HELP };

/**
 * The question set of `--answers`: the set named by --questions (the answers are matched to it
 * when the run starts), or a new one imported from the answers file's own questions.
 */
async function answersQuestionSet(
  session: StoreSession,
  args: EvalArgs,
  answers: ParsedAnswersFile,
): Promise<QuestionSetRow> {
  if (args.questions) return questionSetFor(session, args, async () => null);
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

/** Ingests --docs, then checks the collection exists; returns its id (null without one). */
async function prepareCollection(
  session: StoreSession,
  config: RagjudgeConfig,
  args: EvalArgs,
): Promise<string | null> {
  if (!args.collection) return null;
  const bot = createBuiltinBot({
    db: session.store.db,
    workspaceId: session.actor.workspaceId,
    llm: sessionClients(config, session, { noCache: args.noCache }),
    retrieval: config.rag.retrieval,
  });
  if (args.docs.length > 0) {
    const result = await bot.ingestPaths(args.docs, { name: args.collection });
    process.stderr.write(
      `Ingested into "${args.collection}": ${result.documents.added} added, ${result.documents.unchanged} unchanged, ${result.documents.replaced} replaced (${result.chunks.added} chunks)\n`,
    );
    for (const problem of result.problems) {
      process.stderr.write(
        `${problem.source}${problem.line ? `:${problem.line}` : ""}: ${problem.message}\n`,
      );
    }
  }
  // Throws CollectionNotFoundError (exit 2) for the built-in bot's missing collection.
  try {
    return await bot.resolveCollection(args.collection);
  } catch (error) {
    if (args.bot.kind === "builtin") throw error;
    return null;
  }
}

/** The report with its CI checks; `failures` says why the exit code is 1. */
async function reportOf(
  db: Db,
  workspaceId: string,
  row: EvaluationRow,
  args: Pick<EvalArgs, "thresholds" | "baseline" | "tolerance">,
): Promise<{ report: EvaluationReport; failures: string[] }> {
  const report = buildReport(
    row,
    withLabels(
      await listReportRows(db, workspaceId, row.id),
      await listHumanLabels(db, workspaceId, row.id),
    ),
  );
  const failures: string[] = [];
  const checks = checkThresholds(report.summary, args.thresholds);
  if (checks.length > 0) report.thresholds = checks;
  failures.push(...checks.filter((c) => !c.ok).map((c) => c.message));
  if (args.baseline) {
    const base = await getEvaluation(db, workspaceId, args.baseline);
    if (base) {
      const baseline = buildReport(base, await listReportRows(db, workspaceId, base.id));
      report.baseline = compareToBaseline(report, baseline, { tolerance: args.tolerance });
      for (const change of report.baseline.regressions) {
        failures.push(
          `regression on #${change.current.position + 1} "${change.question.slice(0, 70)}": ${change.reason}`,
        );
      }
    }
  }
  return { report, failures };
}

/** Writes the report where asked and prints the summary; returns the exit code. */
export async function finishEvaluation(
  session: StoreSession,
  row: EvaluationRow,
  args: Pick<EvalArgs, "thresholds" | "baseline" | "tolerance" | "format" | "out" | "lang">,
): Promise<number> {
  const { report, failures } = await reportOf(
    session.store.db,
    session.actor.workspaceId,
    row,
    args,
  );
  // JSON, the largest format, goes out a result at a time rather than as one string.
  const chunks =
    args.format === "json"
      ? jsonReportChunks(report)
      : [renderReport(report, args.format, args.lang)];
  if (args.out) {
    await writeFile(args.out, Readable.from(chunks));
    process.stdout.write(
      `${renderSummaryTable(report, args.lang)}\nReport (${args.format}) written to ${args.out}\n`,
    );
  } else {
    // Standard output holds the machine-readable report alone; the person reads stderr.
    if (args.format !== "table") process.stderr.write(renderSummaryTable(report, args.lang));
    await pipeline(Readable.from(chunks), process.stdout, { end: false });
  }
  for (const failure of failures) process.stderr.write(`FAILED: ${failure}\n`);
  const incomplete = incompleteReason(report);
  if (incomplete) {
    process.stderr.write(`INCOMPLETE: ${incomplete}\n`);
    return EXIT.incomplete;
  }
  return failures.length > 0 ? EXIT.checkFailed : EXIT.done;
}

export async function evalCommand(argv: string[]): Promise<number> {
  const args = parseEvalArgs(argv);
  if (args === "help") {
    process.stdout.write(`${EVAL_HELP}\n`);
    return EXIT.done;
  }
  // Before the store opens: a mistyped file name is a usage error, not a wait for the database.
  if (args.questions && !existsSync(args.questions) && !isUuid(args.questions)) {
    throw new UsageError(`--questions: no such file or question set "${args.questions}"`);
  }
  const loaded = await loadConfig(args.config ? { path: args.config } : {});
  if (args.judges.some(needsLlm) && !isLlmConfigured(loaded.llm, "judge")) {
    throw new UsageError(
      `--judge ${args.judges.join(",")} needs an LLM: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server wants one), ` +
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
    if (args.baseline && !(await getEvaluation(db, workspaceId, args.baseline))) {
      throw new UsageError(`--baseline: evaluation ${args.baseline} not found`);
    }
    let row: EvaluationRow;
    if (args.resume) {
      const found = await getEvaluation(db, workspaceId, args.resume);
      if (!found) throw new UsageError(`--resume: evaluation ${args.resume} not found`);
      row = found;
    } else {
      // Parse first: a bad answers file stops the command before anything is stored.
      if (args.answers && !existsSync(args.answers)) {
        throw new UsageError(`--answers: no such file "${args.answers}"`);
      }
      const answers = args.answers ? await readAnswersFile(args.answers) : undefined;
      const set = answers
        ? await answersQuestionSet(session, args, answers)
        : await questionSetFor(session, args, () => prepareCollection(session, config, args));
      runtime = await startEvaluationRuntime(session, config, {
        worker: args.worker,
        concurrency: args.concurrency,
      });
      row = await startEvaluation(
        runtime.deps,
        session.actor,
        {
          question_set_id: set.id,
          bot: args.bot,
          ...(answers ? { answers: answers.lines } : {}),
          judges: args.judges,
          no_cache: args.noCache,
          retrieval_k: args.retrievalK,
          ...(args.maxCost !== undefined && args.maxCost !== null
            ? { max_cost_usd: args.maxCost }
            : {}),
          ...(args.collection ? { collection_id: args.collection } : {}),
          ...(args.name ? { name: args.name } : {}),
        },
        config,
        { via: "cli" },
      );
      process.stderr.write(
        `Evaluation ${row.id}: ${row.total_questions} questions, bot ${row.bot_id}, judges ${args.judges.join(",")}\n`,
      );
    }
    const live = row.status === "PENDING" || row.status === "RUNNING" || row.status === "PAUSED";
    if (live) {
      runtime ??= await startEvaluationRuntime(session, config, {
        worker: args.worker,
        concurrency: args.concurrency,
      });
      if (args.resume) row = await reattach(runtime.deps, session, row, args.maxCost);
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
    return await finishEvaluation(session, row, args);
  } catch (error) {
    return handleRunError(error, args.answers);
  } finally {
    await runtime?.stop();
    await session.close();
  }
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
