import { wordMessage } from "../../text/index.js";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { isLlmConfigured, loadConfig, type RagjudgeConfig } from "../../config/index.js";
import type { AnswerLine } from "../../evals/answers/index.js";
import {
  ArenaContestantError,
  type ArenaRequestInput,
  completeArena,
  renderArena,
  startArena,
} from "../../evals/arena/index.js";
import { QuestionImportError } from "../../evals/questions/index.js";
import { EvaluationNotFoundError, EvaluationRequestError } from "../../evals/runs/index.js";
import { type ArenaRow, getEvaluation } from "../../store/index.js";
import { prepareCollection } from "../collection.js";
import { followEvaluation, startEvaluationRuntime } from "../evaluation-runtime.js";
import { sessionClients, sessionLoopsConfig } from "../llm-session.js";
import { questionSetFor, readAnswersFile } from "../question-file.js";
import { openStoreSession, type StoreSession } from "../store-session.js";
import { EXIT } from "../exit-codes.js";
import { UsageError } from "../usage-error.js";
import { ARENA_HELP, type ArenaPlan, parseArenaArgs, planArena } from "./arena-args.js";

export { ARENA_HELP };

/** Every answers file, parsed before anything is stored: a bad one names its file, line and field. */
async function readContestantAnswers(
  contestants: ArenaPlan["contestants"],
): Promise<Map<string, AnswerLine[]>> {
  const answers = new Map<string, AnswerLine[]>();
  for (const c of contestants) {
    if (c.kind !== "answers") continue;
    if (!existsSync(c.file)) throw new UsageError(`--answers ${c.name}=: no such file "${c.file}"`);
    try {
      answers.set(c.name, (await readAnswersFile(c.file)).lines);
    } catch (error) {
      if (QuestionImportError.isInstance(error)) throw new ArenaContestantError(0, c.name, error);
      throw error;
    }
  }
  return answers;
}

/** The configuration each contestant runs under: its own file for `builtin:CONFIG.json`. */
async function contestantConfigs(
  contestants: ArenaPlan["contestants"],
  base: RagjudgeConfig,
  session: StoreSession,
) {
  return Promise.all(
    contestants.map(async (c) => {
      if (c.kind !== "bot" || !c.configFile) return base;
      if (!existsSync(c.configFile))
        throw new UsageError(`--bot ${c.name}=builtin:${c.configFile}: no such file`);
      const own = await loadConfig({ path: c.configFile });
      return { ...own, rag: { ...own.rag, loops: sessionLoopsConfig(own, session) } };
    }),
  );
}

export async function arenaCommand(argv: string[]): Promise<number> {
  const args = parseArenaArgs(argv);
  if (args === "help") {
    process.stdout.write(`${ARENA_HELP}\n`);
    return EXIT.done;
  }
  const plan = planArena(args);
  const loaded = await loadConfig(plan.configPath ? { path: plan.configPath } : {});
  if (plan.judge !== "offline" && !isLlmConfigured(loaded.llm, "judge")) {
    throw new UsageError(
      `--judge ${plan.judge} needs an LLM: set OPENAI_BASE_URL (and OPENAI_API_KEY if the server wants one), or RAGJUDGE_JUDGE_BASE_URL; or use --judge offline`,
    );
  }
  const answers = await readContestantAnswers(plan.contestants).catch(reportInputError);
  if (typeof answers === "number") return answers;
  const session = await openStoreSession();
  const config: RagjudgeConfig = {
    ...loaded,
    rag: { ...loaded.rag, loops: sessionLoopsConfig(loaded, session) },
  };
  let runtime: Awaited<ReturnType<typeof startEvaluationRuntime>> | undefined;
  try {
    const { workspaceId } = session.actor;
    const configs = await contestantConfigs(plan.contestants, config, session);
    const set = await questionSetFor(session, plan.questions, () =>
      prepareCollection(session, config, plan.collection),
    );
    runtime = await startEvaluationRuntime(session, config, plan.runtime);
    const request: ArenaRequestInput = {
      question_set_id: set.id,
      ...plan.settings,
      contestants: plan.contestants.map((c) => {
        if (c.kind === "evaluation") return { name: c.name, evaluation_id: c.id };
        if (c.kind === "answers") return { name: c.name, answers: answers.get(c.name) ?? [] };
        return {
          name: c.name,
          bot: c.bot,
          ...(plan.collection ? { collection_id: plan.collection.name } : {}),
        };
      }),
    };
    let row: ArenaRow = await startArena(
      runtime.deps,
      session.actor,
      request,
      config,
      (i) => configs[i] ?? config,
      // Compared here, in-process, so its progress and result print in this terminal.
      { via: "cli", compute: "caller" },
    );
    process.stderr.write(
      `Arena ${row.id}: ${plan.contestants.length} contestants on question set "${set.name}", judge ${plan.judge}\n`,
    );
    for (const c of (row.config as { contestants: { name: string; evaluation_id: string }[] })
      .contestants) {
      const run = await getEvaluation(session.store.db, workspaceId, c.evaluation_id);
      if (!run || !["PENDING", "RUNNING"].includes(run.status)) continue;
      process.stderr.write(`${c.name}: evaluation ${run.id}\n`);
      const outcome = await followEvaluation(runtime, workspaceId, run.id);
      if (outcome.interrupted) {
        process.stderr.write(`\nPaused evaluation ${run.id}; the arena ${row.id} stays open.\n`);
        return EXIT.interrupted;
      }
    }
    const judgeClient = sessionClients(config, session, { noCache: plan.noCache }).judge;
    let last = 0;
    row = await completeArena(runtime.deps, workspaceId, row.id, {
      ...(judgeClient ? { judgeClient } : {}),
      onProgress: (done, total) => {
        if (done === total || Date.now() - last > 1000) {
          last = Date.now();
          process.stderr.write(`pairwise judge: ${done}/${total} pairs\n`);
        }
      },
    });
    if (row.status !== "COMPLETED") {
      process.stderr.write(
        `ragjudge arena: the arena is ${row.status}: ${row.status_message ? wordMessage(row.status_message, plan.output.lang) : (row.status_reason ?? "its runs have not finished")}\n`,
      );
      return EXIT.incomplete;
    }
    const { format, out } = plan.output;
    const rendered = renderArena(row, format, plan.output.lang);
    if (out) {
      await writeFile(out, rendered);
      if (format !== "table") process.stdout.write(renderArena(row, "table", plan.output.lang));
      process.stderr.write(`Arena report (${format}) written to ${out}\n`);
    } else {
      process.stdout.write(rendered);
    }
    return EXIT.done;
  } catch (error) {
    return reportInputError(error);
  } finally {
    await runtime?.stop();
    await session.close();
  }
}

/** Input errors as exit code 2 with every bad line named; anything else is thrown on. */
function reportInputError(error: unknown): number {
  if (error instanceof ArenaContestantError && QuestionImportError.isInstance(error.reason)) {
    const rows = error.reason.rows;
    process.stderr.write(
      `ragjudge arena: contestant "${error.contestant}": the answers were not used (nothing was stored):\n`,
    );
    if (rows.length === 0) process.stderr.write(`  ${error.reason.message}\n`);
    for (const row of rows)
      process.stderr.write(`  line ${row.row}: ${row.field}: ${row.message}\n`);
    return EXIT.usage;
  }
  if (QuestionImportError.isInstance(error)) {
    process.stderr.write(`ragjudge arena: the question file was not imported: ${error.message}\n`);
    return EXIT.usage;
  }
  if (
    error instanceof ArenaContestantError ||
    error instanceof EvaluationRequestError ||
    error instanceof EvaluationNotFoundError
  ) {
    process.stderr.write(`ragjudge arena: ${error.message}\n`);
    return EXIT.usage;
  }
  throw error;
}
