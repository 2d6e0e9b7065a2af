import { parseArgs } from "node:util";
import type { MessageLanguage } from "../../text/index.js";
import { LANG_OPTION, languageOption } from "../lang-option.js";
import {
  ARENA_FORMATS,
  ARENA_JUDGES,
  type ArenaFormat,
  type ArenaJudge,
} from "../../evals/arena/index.js";
import { BOOTSTRAP_DEFAULTS } from "../../evals/arena/index.js";
import { type BotConfig, BotConfigSchema } from "../../evals/runs/index.js";
import { isUuid } from "../../store/index.js";
import type { CollectionPlan } from "../collection.js";
import { UsageError } from "../usage-error.js";

export const ARENA_HELP = `Usage: ragjudge arena --questions FILE|ID CONTESTANT CONTESTANT... [options]

Auto-Arena: two or more contestants answer one question set and are compared question
by question, by their judge scores or by a pairwise LLM judge (both orders, a win only when both
agree). Prints Bradley-Terry ratings with 95% bootstrap intervals, win rates, the win/tie/loss
matrix, which contestants this set cannot tell apart, and a length-controlled fit.

Contestants (repeatable, in any order; NAME is how the reports call it):
  --answers NAME=FILE     precomputed answers (.jsonl, .json or .csv: question, answer, contexts?...)
  --bot NAME=builtin      the built-in bot (on --collection); builtin:CONFIG.json runs it under
                          that configuration file (its own models and loop settings)
  --bot NAME=URL          an HTTP bot (docs/bots.md)
  --evaluation NAME=ID    an existing evaluation run on the same question set (reused, not re-run)

Options:
  --questions FILE|ID     a question file to import, or a question set id
  --judge J               offline, rubric, reference (score-based) or pairwise (default: offline)
  --tolerance X           score-based: a difference up to X (0-1 scale) is a tie (default: 0.05)
  --rounds N              bootstrap rounds, at least ${BOOTSTRAP_DEFAULTS.minRounds} (default: ${BOOTSTRAP_DEFAULTS.rounds})
  --seed N                the bootstrap's seed: the same seed prints the same intervals (default: ${BOOTSTRAP_DEFAULTS.seed})
  --language L            the pairwise judge's prompts: en, zh or auto (by the question; default)
  --collection C          the collection built-in bots answer from (name or id)
  --name N                the arena's name
  --format F              table, json, markdown or html (one self-contained file; default: table)
  --out FILE              write the report to FILE instead of standard output
  --concurrency N         questions run at once by the embedded worker (default: 16)
  --no-cache              neither read nor write the LLM response cache
  --config FILE.json      configuration file (default: ./ragjudge.config.json if present)
  --lang en|zh            the language of the table and Markdown report and of why an arena
                          failed (default: en); --language is the pairwise judge's
  -h, --help              show this help

Exit code: 0 done, 2 usage or input errors (every bad line of an answers file is named), 3 the
arena could not be completed (a contestant's run failed or was cancelled), 130 interrupted.`;

export type ArenaContestantArg =
  | { name: string; kind: "answers"; file: string }
  | { name: string; kind: "bot"; bot: BotConfig; configFile?: string }
  | { name: string; kind: "evaluation"; id: string };

export interface ArenaArgs {
  questions: string;
  contestants: ArenaContestantArg[];
  judge: ArenaJudge;
  tolerance: number;
  rounds: number;
  seed: number;
  language: "en" | "zh" | "auto";
  /** The language of what this command prints in sentences (why the arena failed). */
  lang: MessageLanguage;
  collection?: string;
  name?: string;
  format: ArenaFormat;
  out?: string;
  concurrency: number;
  noCache: boolean;
  config?: string;
}

function split(flag: string, text: string): [string, string] {
  const at = text.indexOf("=");
  if (at <= 0 || at === text.length - 1)
    throw new UsageError(`--${flag} takes NAME=VALUE (got "${text}")`);
  return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new UsageError(`--${flag} takes an integer from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

function contestantOf(flag: string, text: string): ArenaContestantArg {
  const [name, value] = split(flag, text);
  if (flag === "answers") return { name, kind: "answers", file: value };
  if (flag === "evaluation") {
    if (!isUuid(value))
      throw new UsageError(`--evaluation ${name}= takes an evaluation id (got "${value}")`);
    return { name, kind: "evaluation", id: value };
  }
  if (value === "builtin") return { name, kind: "bot", bot: { kind: "builtin" } };
  if (value.startsWith("builtin:")) {
    return {
      name,
      kind: "bot",
      bot: { kind: "builtin" },
      configFile: value.slice("builtin:".length),
    };
  }
  const parsed = BotConfigSchema.safeParse({ kind: "http", url: value });
  if (!parsed.success) {
    throw new UsageError(
      `--bot ${name}= takes builtin, builtin:CONFIG.json or an http(s) URL: ${parsed.error.issues[0]?.message ?? "invalid"}`,
    );
  }
  return { name, kind: "bot", bot: parsed.data };
}

export function parseArenaArgs(argv: string[]): ArenaArgs | "help" {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    allowPositionals: true,
    tokens: true,
    options: {
      questions: { type: "string" },
      answers: { type: "string", multiple: true, default: [] },
      bot: { type: "string", multiple: true, default: [] },
      evaluation: { type: "string", multiple: true, default: [] },
      judge: { type: "string", default: "offline" },
      tolerance: { type: "string", default: "0.05" },
      rounds: { type: "string", default: String(BOOTSTRAP_DEFAULTS.rounds) },
      seed: { type: "string", default: String(BOOTSTRAP_DEFAULTS.seed) },
      language: { type: "string", default: "auto" },
      collection: { type: "string" },
      name: { type: "string" },
      format: { type: "string", default: "table" },
      out: { type: "string" },
      concurrency: { type: "string", default: "16" },
      "no-cache": { type: "boolean", default: false },
      config: { type: "string" },
      lang: LANG_OPTION,
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) return "help";
  if (positionals.length > 0)
    throw new UsageError(`arena takes no positional arguments (got "${positionals[0]}")`);
  if (!values.questions) throw new UsageError("--questions FILE|ID is required");
  // Contestants in the order given on the command line, whatever their kind.
  const contestants = tokens
    .filter((t) => t.kind === "option" && ["answers", "bot", "evaluation"].includes(t.name))
    .map((t) => contestantOf((t as { name: string }).name, (t as { value?: string }).value ?? ""));
  if (contestants.length < 2) {
    throw new UsageError(
      "an arena needs at least two contestants (--answers, --bot or --evaluation NAME=...)",
    );
  }
  const names = new Set<string>();
  for (const c of contestants) {
    if (names.has(c.name)) throw new UsageError(`two contestants are named "${c.name}"`);
    names.add(c.name);
  }
  if (!(ARENA_JUDGES as readonly string[]).includes(values.judge)) {
    throw new UsageError(`--judge takes ${ARENA_JUDGES.join(", ")} (got "${values.judge}")`);
  }
  if (!(ARENA_FORMATS as readonly string[]).includes(values.format)) {
    throw new UsageError(`--format takes ${ARENA_FORMATS.join(", ")} (got "${values.format}")`);
  }
  if (!["en", "zh", "auto"].includes(values.language))
    throw new UsageError("--language takes en, zh or auto");
  const tolerance = Number(values.tolerance);
  if (values.tolerance.trim() === "" || !(tolerance >= 0 && tolerance <= 1)) {
    throw new UsageError(`--tolerance takes a number from 0 to 1 (got "${values.tolerance}")`);
  }
  if (
    contestants.some((c) => c.kind === "bot" && c.bot.kind === "builtin") &&
    !values.collection &&
    !isUuid(values.questions)
  ) {
    throw new UsageError("--collection is required for a built-in bot on a question file");
  }
  return {
    questions: values.questions,
    contestants,
    judge: values.judge as ArenaJudge,
    tolerance,
    rounds: integer("rounds", values.rounds, BOOTSTRAP_DEFAULTS.minRounds, 100_000),
    seed: integer("seed", values.seed, 0, 2 ** 32 - 1),
    language: values.language as ArenaArgs["language"],
    lang: languageOption(values.lang),
    format: values.format as ArenaFormat,
    concurrency: integer("concurrency", values.concurrency, 1, 1024),
    noCache: values["no-cache"],
    ...(values.collection !== undefined ? { collection: values.collection } : {}),
    ...(values.name !== undefined ? { name: values.name } : {}),
    ...(values.out !== undefined ? { out: values.out } : {}),
    ...(values.config !== undefined ? { config: values.config } : {}),
  };
}

/**
 * What `ragjudge arena` does, resolved once from its arguments: the question source and
 * collection, the contestants with the files to read for them before anything is stored, the
 * request's settings, and where the report goes. The command's steps read this, never the raw
 * arguments.
 */
export interface ArenaPlan {
  configPath?: string | undefined;
  judge: ArenaJudge;
  noCache: boolean;
  /** A question file or a question set id. */
  questions: string;
  collection?: CollectionPlan | undefined;
  contestants: ArenaContestantArg[];
  /** The arena request's settings; the question set and contestants are decided by the steps. */
  settings: {
    judge: ArenaJudge;
    tolerance: number;
    rounds: number;
    seed: number;
    language: "en" | "zh" | "auto";
    no_cache: boolean;
    name?: string;
  };
  runtime: { worker: true; concurrency: number };
  output: { format: ArenaFormat; out?: string | undefined; lang: MessageLanguage };
}

export function planArena(args: ArenaArgs): ArenaPlan {
  return {
    configPath: args.config,
    judge: args.judge,
    noCache: args.noCache,
    questions: args.questions,
    // The arena's collection is only resolved (never ingested into), and must exist.
    ...(args.collection ? { collection: { name: args.collection, docs: [], required: true } } : {}),
    contestants: args.contestants,
    settings: {
      judge: args.judge,
      tolerance: args.tolerance,
      rounds: args.rounds,
      seed: args.seed,
      language: args.language,
      no_cache: args.noCache,
      ...(args.name ? { name: args.name } : {}),
    },
    runtime: { worker: true, concurrency: args.concurrency },
    output: { format: args.format, out: args.out, lang: args.lang },
  };
}
