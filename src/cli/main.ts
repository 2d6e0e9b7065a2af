import { createRequire } from "node:module";
import { errorText } from "../llm/index.js";
import { ModelFailureError } from "../rag/index.js";
import { ARENA_HELP, arenaCommand } from "./commands/arena.js";
import { ASK_HELP, askCommand } from "./commands/ask.js";
import { CALIBRATE_HELP, calibrateCommand } from "./commands/calibrate.js";
import { EVAL_HELP, evalCommand } from "./commands/eval.js";
import { GATE_HELP, gateCommand } from "./commands/gate.js";
import { INGEST_HELP, ingestCommand } from "./commands/ingest.js";
import { JUDGE_HELP, judgeCommand } from "./commands/judge.js";
import { LABEL_HELP, labelCommand } from "./commands/label.js";
import { SERVE_HELP, serveCommand } from "./commands/serve.js";
import { startCommand } from "./commands/start.js";
import { TOKEN_HELP, tokenCommand } from "./commands/token.js";
import { WORKER_HELP, workerCommand } from "./commands/worker.js";
import { EXIT } from "./exit-codes.js";

const HELP = `ragjudge — decides whether a RAG system's answers deserve trust.

Usage: ragjudge <command> [options]

Commands:
  start            evaluate the built-in bot on the bundled corpus and questions (npm start)
  eval             run an evaluation of a bot on a question set; report, CI thresholds
  arena            compare systems on one question set: ratings, intervals, win matrix
  gate FILE.jsonl  gate answers on their evidence; exit code 1 when any fails
  judge FILE.jsonl judge answers with LLM judges (review, rubric, reference) or offline ones
  label import     import people's scores of a run's answers (the manual golden set)
  calibrate        how far a run's judge agrees with people; golden-set verdict, few-shot examples
  ingest PATH...   ingest documents into a collection of the built-in RAG bot
  ask "question"   answer with the built-in agentic RAG bot, gated on its evidence
  serve            serve the HTTP API on 127.0.0.1
  worker           run queued evaluation items (with serve or eval --no-worker)
  token create     create a user's API token

Storage: the embedded database in $RAGJUDGE_HOME (default ./.ragjudge), or the PostgreSQL
server in $DATABASE_URL. Run \`ragjudge <command> --help\` for a command's options.

Exit codes (every command): 0 done; 1 a quality check failed; 2 usage or input error; 3 the run
could not be completed (provider outage, every judge failed, a crash); 130 interrupted.

${EVAL_HELP}

${ARENA_HELP}

${GATE_HELP}

${JUDGE_HELP}

${LABEL_HELP}

${CALIBRATE_HELP}

${INGEST_HELP}

${ASK_HELP}

${SERVE_HELP}

${WORKER_HELP}

${TOKEN_HELP}`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  start: () => startCommand(),
  eval: evalCommand,
  arena: arenaCommand,
  gate: (argv) => gateCommand(argv),
  judge: (argv) => judgeCommand(argv),
  label: labelCommand,
  calibrate: calibrateCommand,
  ingest: ingestCommand,
  ask: askCommand,
  serve: serveCommand,
  token: tokenCommand,
  worker: workerCommand,
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    process.stdout.write(`${HELP}\n`);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    const pkg = createRequire(import.meta.url)("../../package.json") as { version: string };
    process.stdout.write(`${pkg.version}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(`ragjudge: unknown command "${name}". Run \`ragjudge --help\`.\n`);
    return 2;
  }
  try {
    return await command(rest);
  } catch (error) {
    // A typed error's kind decides the exit code (EXIT_BY_KIND); a failed model counts even when
    // wrapped in another error's cause chain.
    const typed = [kindOf(error), ModelFailureError.findIn(error)].find(
      (e) => e && EXIT_BY_KIND[e.kind] !== undefined,
    );
    const code = typed && EXIT_BY_KIND[typed.kind];
    if (code !== undefined || isParseArgsError(error)) {
      process.stderr.write(`ragjudge ${name}: ${errorText(typed ?? error)}\n`);
      return code ?? EXIT.usage;
    }
    throw error;
  }
}

/**
 * Each kind of typed error the commands let through, and its exit code: the caller's mistake
 * (usage), or a run that could not be done (incomplete; a damaged store's message says where the
 * data went). Any other error is a crash, printed with its stack.
 */
const EXIT_BY_KIND: Partial<Record<string, number>> = {
  usage: EXIT.usage,
  invalid_request: EXIT.usage,
  invalid_config: EXIT.usage,
  not_found: EXIT.usage,
  locked: EXIT.usage,
  damaged: EXIT.incomplete,
  model_failed: EXIT.incomplete,
};

function kindOf(error: unknown): (Error & { kind: string }) | undefined {
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return error instanceof Error && typeof kind === "string"
    ? (error as Error & { kind: string })
    : undefined;
}

function isParseArgsError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? "";
  return code.startsWith("ERR_PARSE_ARGS");
}
