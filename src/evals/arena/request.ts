import { z } from "zod";
import { DEFAULT_PRICES, PriceTableSchema } from "../../llm/index.js";
import { LoopsConfigSchema } from "../../rag/index.js";
import { AnswerLineSchema } from "../answers/index.js";
import { QUESTION_LIMITS } from "../questions/index.js";
import { BotConfigSchema } from "../runs/index.js";
import { BOOTSTRAP_DEFAULTS } from "./bootstrap.js";

// What an arena is asked to do (issue 14 §2; seed 002 section 3.2's Auto-Arena): two or more
// contestants on one question set, compared by their judge scores or by a pairwise LLM judge.

/** Score-based comparisons use a run judge's scores; `pairwise` asks the judge LLM per pair. */
export const ARENA_JUDGES = ["offline", "rubric", "reference", "pairwise"] as const;
export type ArenaJudge = (typeof ARENA_JUDGES)[number];

export const MAX_CONTESTANTS = 12;

export const ContestantSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "a non-empty name")
      .max(64)
      .regex(/^[^=\s][^=]*$/, "no '=' and no leading space"),
    /** An existing evaluation run on the arena's question set: reused, not re-run. */
    evaluation_id: z.uuid({ error: "an evaluation id" }).optional(),
    /** Precomputed answers, matched to the set's questions by text. */
    answers: z.array(AnswerLineSchema).min(1).max(QUESTION_LIMITS.questionsPerSet).optional(),
    /** A bot to run on the set: the built-in one or an HTTP bot. */
    bot: BotConfigSchema.optional(),
    /** The built-in bot's collection (id or name); default the question set's. */
    collection_id: z.string().trim().min(1).max(256).optional(),
    /** The built-in bot's own loop settings (seeds 000/001), in place of the configured ones. */
    loops: LoopsConfigSchema.optional(),
  })
  .refine((c) => [c.evaluation_id, c.answers, c.bot].filter((x) => x !== undefined).length === 1, {
    error: "exactly one of evaluation_id, answers or bot",
  })
  .refine((c) => c.loops === undefined || c.bot?.kind === "builtin", {
    path: ["loops"],
    error: "loop settings are the built-in bot's",
  });
export type Contestant = z.infer<typeof ContestantSchema>;

export const ArenaRequestSchema = z
  .object({
    name: z.string().trim().min(1).max(255).optional(),
    question_set_id: z.uuid({ error: "a question set id" }),
    contestants: z.array(ContestantSchema).min(2, "at least two contestants").max(MAX_CONTESTANTS),
    judge: z.enum(ARENA_JUDGES).default("offline"),
    /** Score-based: a difference of at most this much (on the judge's [0, 1] scale) is a tie. */
    tolerance: z.number().min(0).max(1).default(0.05),
    rounds: z
      .number()
      .int()
      .min(BOOTSTRAP_DEFAULTS.minRounds)
      .max(100_000)
      .default(BOOTSTRAP_DEFAULTS.rounds),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .default(BOOTSTRAP_DEFAULTS.seed),
    /** The pairwise judge's prompt language; auto picks by each question's script. */
    language: z.enum(["en", "zh", "auto"]).default("auto"),
    no_cache: z.boolean().default(false),
  })
  .superRefine((request, ctx) => {
    const seen = new Map<string, number>();
    request.contestants.forEach((c, i) => {
      const earlier = seen.get(c.name);
      if (earlier !== undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["contestants", i, "name"],
          message: `the same name as contestants.${earlier}`,
        });
      }
      seen.set(c.name, i);
    });
  });
export type ArenaRequest = z.infer<typeof ArenaRequestSchema>;
export type ArenaRequestInput = z.input<typeof ArenaRequestSchema>;

/** What the arena row stores as its configuration: every contestant is a run by now; no key, no answers. */
export const ArenaSnapshotSchema = z.object({
  question_set_id: z.string(),
  contestants: z.array(
    z.object({
      name: z.string(),
      evaluation_id: z.string(),
      /** How the contestant came: a reused run, precomputed answers, or a bot run now. */
      source: z.enum(["evaluation", "answers", "builtin", "http"]),
      bot_id: z.string(),
    }),
  ),
  judge: z.enum(ARENA_JUDGES),
  /** The pairwise judge's model, when it runs. */
  judge_model: z.string().nullable(),
  tolerance: z.number(),
  rounds: z.number(),
  seed: z.number(),
  language: z.enum(["en", "zh", "auto"]),
  no_cache: z.boolean(),
  /** Who compares the finished runs: a worker's `arena-compare` job, or the CLI in-process. */
  compute: z.enum(["job", "caller"]).default("caller"),
  /** USD per million tokens the pairwise judge's calls are priced at (llm/prices.ts). */
  prices: PriceTableSchema.default(DEFAULT_PRICES),
});
export type ArenaSnapshot = z.infer<typeof ArenaSnapshotSchema>;
