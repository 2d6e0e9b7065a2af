import { parseArgs } from "node:util";
import type { MessageLanguage } from "../../text/index.js";
import { LANG_OPTION, languageOption } from "../lang-option.js";
import {
  REPORT_FORMATS,
  type ReportFormat,
  type Thresholds,
  ThresholdsSchema,
} from "../../evals/reports/index.js";
import { type BotConfig, BotConfigSchema } from "../../evals/runs/index.js";
import type { JudgeKind } from "../../judges/index.js";
import { isUuid } from "../../store/index.js";
import { parseJudgeKinds } from "../judge-kinds.js";
import type { CollectionPlan } from "../collection.js";
import type { ReportPlan } from "../evaluation-report.js";
import { UsageError } from "../usage-error.js";

export const EVAL_HELP = `Usage: ragjudge eval --collection C --questions FILE|ID [options]
       ragjudge eval --answers FILE [--questions FILE|ID] [options]
       ragjudge eval --resume EVALUATION_ID [options]

Runs an evaluation: asks the bot every question of a question set, gates each answer on its
evidence, judges it, and reports. A question FILE (.jsonl, .json or .csv with question,
ground_truth?, question_type?) is imported as a new question set named after the file, all or
nothing; an existing question set is named by its id. --answers judges precomputed answers
instead of asking a bot: each line of FILE (.jsonl, .json or .csv) holds {question, answer,
ground_truth? | ground_truths?, contexts?, citations?}; its questions become a new question set
(or, with --questions, are matched to that set's), all or nothing.

Options:
  --collection C          the collection the built-in bot answers from (name or id)
  --questions FILE|ID     a question file to import, or a question set id
  --bot builtin|URL       the bot under test (default: builtin; a URL speaks docs/bots.md's contract)
  --answers FILE          judge the precomputed answers in FILE (no bot, no collection needed)
  --judge LIST            offline, rubric, reference, review, comma-separated (default: offline)
  --docs PATH             ingest PATH into the collection first, creating it (repeatable)
  --name N                the evaluation's name (default: the question set's name and the time)
  --format F              table, json, junit, markdown or csv report (default: table);
                          json and csv carry people's labels (ragjudge label import)
  --out FILE              write the report to FILE instead of standard output
  --lang en|zh            the words of the reports and of why a check failed (default: en)
  --concurrency N         questions run at once by the embedded worker (default: 16)
  --k N                   cutoff of hit rate, recall, precision and nDCG for questions with
                          relevant_ids or reference_contexts (default: 5)
  --min-score X           fail (exit 1) when the average score is below X (0-1)
  --min-pass-rate X       fail (exit 1) when the share of passed questions is below X (0-1)
  --max-errors N          fail (exit 1) when more than N questions end in a bot or judge error
  --max-cost USD          pause the run before its LLM cost passes USD dollars (docs/cost.md);
                          with --resume, the paused run's new limit (none: no limit)
  --baseline ID           fail (exit 1) on questions that regressed against an earlier evaluation
  --tolerance X           score drop that counts as a regression (default: 0.05)
  --resume ID             re-attach to an evaluation: resume it if paused, wait, report
  --no-cache              neither read nor write the LLM response cache for this run
  --no-worker             start no embedded worker; \`ragjudge worker\` processes run the items
  --config FILE.json      configuration file (default: ./ragjudge.config.json if present)
  -h, --help              show this help

Progress goes to stderr. Ctrl-C pauses the run; \`ragjudge eval --resume ID\` continues it.
Exit code: 0 done, 1 a threshold or baseline check failed, 2 usage or input errors (every bad
row of a question file is named), 3 the run could not be completed (it ended FAILED or
CANCELLED, or no question was scored because every one ended in an error), 130 interrupted
(paused).`;

const FORMATS: readonly string[] = REPORT_FORMATS;

export interface EvalArgs {
  collection?: string;
  questions?: string;
  /** A file of precomputed answers to judge instead of asking a bot. */
  answers?: string;
  bot: BotConfig;
  judges: JudgeKind[];
  docs: string[];
  name?: string;
  format: ReportFormat;
  /** The language of the reports' words (table, Markdown, JUnit) and of the checks' reasons. */
  lang: MessageLanguage;
  out?: string;
  concurrency: number;
  /** The cutoff k of the retrieval metrics. */
  retrievalK: number;
  thresholds: Thresholds;
  baseline?: string;
  tolerance: number;
  resume?: string;
  /** Pause before the run's LLM cost passes this many US dollars. */
  /** null: `--max-cost none`, which removes a resumed run's limit. */
  maxCost?: number | null;
  noCache: boolean;
  worker: boolean;
  config?: string;
}

function numberFlag(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value)) {
    throw new UsageError(`${flag} takes a number (got "${text}")`);
  }
  return value;
}

function parseBot(text: string): BotConfig {
  if (text === "builtin") return { kind: "builtin" };
  const parsed = BotConfigSchema.safeParse({ kind: "http", url: text });
  if (!parsed.success) {
    throw new UsageError(
      `--bot takes "builtin" or an http(s) URL: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  return parsed.data;
}

/** The command line, validated before anything is opened or written. */
export function parseEvalArgs(argv: string[]): EvalArgs | "help" {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      collection: { type: "string" },
      questions: { type: "string" },
      answers: { type: "string" },
      bot: { type: "string" },
      judge: { type: "string", default: "offline" },
      docs: { type: "string", multiple: true, default: [] },
      name: { type: "string" },
      format: { type: "string", default: "table" },
      out: { type: "string" },
      concurrency: { type: "string", default: "16" },
      k: { type: "string", default: "5" },
      "min-score": { type: "string" },
      "min-pass-rate": { type: "string" },
      "max-errors": { type: "string" },
      "max-cost": { type: "string" },
      baseline: { type: "string" },
      tolerance: { type: "string", default: "0.05" },
      resume: { type: "string" },
      "no-cache": { type: "boolean", default: false },
      "no-worker": { type: "boolean", default: false },
      config: { type: "string" },
      lang: LANG_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  if (positionals.length > 0) {
    throw new UsageError(`eval takes no positional arguments (got "${positionals[0]}")`);
  }
  if (!FORMATS.includes(values.format)) {
    throw new UsageError(`--format must be one of ${REPORT_FORMATS.join(", ")}`);
  }
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1024) {
    throw new UsageError("--concurrency must be an integer from 1 to 1024");
  }
  const retrievalK = Number(values.k);
  if (!Number.isInteger(retrievalK) || retrievalK < 1 || retrievalK > 200) {
    throw new UsageError("--k must be an integer from 1 to 200");
  }
  const thresholds = ThresholdsSchema.safeParse({
    min_score: numberFlag("--min-score", values["min-score"]),
    min_pass_rate: numberFlag("--min-pass-rate", values["min-pass-rate"]),
    max_errors: numberFlag("--max-errors", values["max-errors"]),
  });
  if (!thresholds.success) {
    const issue = thresholds.error.issues[0];
    const flag = `--${String(issue?.path[0] ?? "").replace(/_/g, "-")}`;
    throw new UsageError(`${flag} takes ${issue?.message ?? "a valid number"}`);
  }
  const tolerance = numberFlag("--tolerance", values.tolerance) ?? 0.05;
  if (tolerance < 0 || tolerance > 1)
    throw new UsageError("--tolerance takes a number from 0 to 1");
  if (values.baseline !== undefined && !isUuid(values.baseline)) {
    throw new UsageError(`--baseline takes an evaluation id (got "${values.baseline}")`);
  }
  // `none` removes a paused run's limit as it resumes (a new run without the flag has none).
  const noLimit = values["max-cost"]?.trim().toLowerCase() === "none";
  if (noLimit && !values.resume) {
    throw new UsageError("--max-cost none goes with --resume: it removes a paused run's limit");
  }
  const maxCost = noLimit ? null : numberFlag("--max-cost", values["max-cost"]);
  if (maxCost !== undefined && maxCost !== null && !(maxCost > 0 && maxCost <= 1_000_000)) {
    throw new UsageError(
      `--max-cost takes a number of US dollars above 0, or none with --resume (got "${values["max-cost"]}")`,
    );
  }
  const args: EvalArgs = {
    bot: values.answers !== undefined ? { kind: "answers" } : parseBot(values.bot ?? "builtin"),
    judges: parseJudgeKinds(values.judge),
    docs: values.docs,
    format: values.format as ReportFormat,
    lang: languageOption(values.lang),
    concurrency,
    retrievalK,
    thresholds: thresholds.data,
    tolerance,
    noCache: values["no-cache"],
    worker: !values["no-worker"],
    ...(values.collection !== undefined ? { collection: values.collection } : {}),
    ...(values.questions !== undefined ? { questions: values.questions } : {}),
    ...(values.answers !== undefined ? { answers: values.answers } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.baseline !== undefined ? { baseline: values.baseline } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
    ...(maxCost !== undefined ? { maxCost } : {}),
  };
  if (values.resume !== undefined) {
    if (!isUuid(values.resume)) {
      throw new UsageError(`--resume takes an evaluation id (got "${values.resume}")`);
    }
    const conflicting = ["questions", "answers", "collection", "docs", "name"].filter((key) =>
      key === "docs"
        ? values.docs.length > 0
        : values[key as "questions" | "max-cost"] !== undefined,
    );
    if (conflicting.length > 0) {
      throw new UsageError(
        `--resume continues an existing evaluation; drop --${conflicting.join(", --")}`,
      );
    }
    return { ...args, resume: values.resume };
  }
  if (args.answers !== undefined) {
    if (values.bot !== undefined) {
      throw new UsageError("--answers judges precomputed answers: drop --bot");
    }
    if (args.docs.length > 0) throw new UsageError("--answers asks no bot: drop --docs");
    return args;
  }
  if (!args.questions) {
    throw new UsageError("--questions FILE|ID is required (or --answers FILE, or --resume ID)");
  }
  if (args.bot.kind === "builtin" && !args.collection) {
    throw new UsageError("--collection is required for the built-in bot");
  }
  if (args.docs.length > 0 && !args.collection) {
    throw new UsageError("--docs needs --collection: the collection to ingest into");
  }
  return args;
}

/**
 * What `ragjudge eval` does, resolved once from its arguments: attach to a run, or start one
 * (its question source, its collection and the request to start), then the worker to run it and
 * the report to write. The command's steps read this, never the raw arguments.
 */
export interface EvalPlan {
  configPath?: string | undefined;
  /** The judges, checked for a configured LLM before the store opens. */
  judges: JudgeKind[];
  noCache: boolean;
  target:
    | {
        kind: "resume";
        evaluationId: string;
        /** The paused run's new cost limit; null removes it. */
        maxCostUsd?: number | null | undefined;
      }
    | {
        kind: "start";
        /** A question file or a question set id (the set the answers are matched to, with answers). */
        questions?: string | undefined;
        /** A file of precomputed answers to judge instead of asking a bot. */
        answers?: string | undefined;
        collection?: CollectionPlan | undefined;
        /** The start request but its question set, which the steps above decide. */
        request: {
          bot: BotConfig;
          judges: JudgeKind[];
          no_cache: boolean;
          retrieval_k: number;
          max_cost_usd?: number;
          collection_id?: string;
          name?: string;
        };
      };
  runtime: { worker: boolean; concurrency: number };
  report: ReportPlan;
}

export function planEvaluation(args: EvalArgs): EvalPlan {
  const common = {
    configPath: args.config,
    judges: args.judges,
    noCache: args.noCache,
    runtime: { worker: args.worker, concurrency: args.concurrency },
    report: {
      thresholds: args.thresholds,
      baseline: args.baseline,
      tolerance: args.tolerance,
      format: args.format,
      out: args.out,
      lang: args.lang,
    },
  };
  if (args.resume) {
    return {
      ...common,
      target: { kind: "resume", evaluationId: args.resume, maxCostUsd: args.maxCost },
    };
  }
  return {
    ...common,
    target: {
      kind: "start",
      questions: args.questions,
      answers: args.answers,
      ...(args.collection
        ? {
            collection: {
              name: args.collection,
              docs: args.docs,
              required: args.bot.kind === "builtin",
            },
          }
        : {}),
      request: {
        bot: args.bot,
        judges: args.judges,
        no_cache: args.noCache,
        retrieval_k: args.retrievalK,
        ...(args.maxCost !== undefined && args.maxCost !== null
          ? { max_cost_usd: args.maxCost }
          : {}),
        ...(args.collection ? { collection_id: args.collection } : {}),
        ...(args.name ? { name: args.name } : {}),
      },
    },
  };
}
