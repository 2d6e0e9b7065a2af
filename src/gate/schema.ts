import { z } from "zod";
import { patternSyntaxError } from "./patterns.js";

// Field names follow seed 004 (EVALUATOR_PIPELINE_GUIDE) section 3 so a reader can trace them.

/** Size limits keep one hostile line from exhausting memory or the database. */
export const LIMITS = {
  answerChars: 200_000,
  hitContentChars: 100_000,
  hits: 1_000,
  citations: 1_000,
  idChars: 256,
} as const;

const id = z.string().trim().min(1, "must be a non-empty string").max(LIMITS.idChars);

export const RetrievalRecordSchema = z.looseObject({
  id,
  query: z.string().max(LIMITS.answerChars).optional(),
  top_k: z.number().int().positive().optional(),
});

export const RetrievalHitSchema = z.looseObject({
  node_id: id,
  content: z.string().max(LIMITS.hitContentChars),
  score: z.number().finite().optional(),
  source: z.string().max(LIMITS.idChars).optional(),
});

export const GenerationRecordSchema = z.looseObject({
  id,
  model: z.string().max(LIMITS.idChars).optional(),
});

export const CitationSchema = z.looseObject({ node_id: id });

export const GenerationOutputSchema = z.object({
  answer: z.string().max(LIMITS.answerChars),
  citations: z.array(CitationSchema).max(LIMITS.citations).default([]),
});

export const CheckStatusSchema = z.enum(["pass", "fail", "warn", "skipped"]);
export type CheckStatus = z.infer<typeof CheckStatusSchema>;

export const GateStatusSchema = z.enum(["pass", "partial", "fail", "skipped"]);
export type GateStatus = z.infer<typeof GateStatusSchema>;

export const GateActionSchema = z.enum(["show", "show_with_warning", "refuse"]);
export type GateAction = z.infer<typeof GateActionSchema>;

/** The status a check gives when its assertion is violated. */
export const SeveritySchema = z.enum(["fail", "warn"]);

/**
 * A case-insensitive regular expression in RE2 syntax, as the gate compiles it (patterns.ts):
 * matching takes linear time, so lookaround and backreferences are refused.
 */
const pattern = z.string().superRefine((source, ctx) => {
  const problem = patternSyntaxError(source);
  if (problem !== undefined) {
    ctx.addIssue({
      code: "custom",
      message: `must be a regular expression in RE2 syntax (no lookaround or backreferences): ${problem}`,
    });
  }
});

const check = <T extends z.ZodRawShape>(severity: "fail" | "warn", shape: T) =>
  z.object({
    enabled: z.boolean().default(true),
    severity: SeveritySchema.default(severity),
    ...shape,
  });

/**
 * One schema for every gate setting; `GateConfigSchema.parse({})` yields the documented defaults
 * (docs/gate.md). Per-answer `config` in an EvaluatorInput is a partial override of these.
 */
export const GateConfigSchema = z.object({
  checks: z
    .object({
      no_empty_answer: check("fail", {
        /** Case-insensitive regular expressions; an answer matching one wholly is a template. */
        template_patterns: z
          .array(pattern)
          .default([
            "^\\{\\{?\\s*\\w*\\s*\\}?\\}$",
            "^<\\w+>$",
            "^\\[(insert|todo|placeholder)[^\\]]*\\]$",
            "^(todo|tbd|n/?a|null|undefined|none|lorem ipsum.*)$",
          ]),
      }).prefault({}),
      require_citations: check("fail", {}).prefault({}),
      citation_coverage: check("fail", {
        /** Minimum share of cited node_ids that must be among retrieval_hits. */
        threshold: z.number().min(0).max(1).default(1),
      }).prefault({}),
      min_answer_length: check("warn", {
        min_chars: z.number().int().min(0).default(20),
      }).prefault({}),
      citation_markers: check("fail", {}).prefault({}),
      sentence_support: check("fail", {
        /** A sentence is supported when this share of its content tokens occurs in its evidence. */
        min_token_support: z.number().min(0).max(1).default(0.5),
        /** Sentences with fewer content tokens are not judged (too short to measure). */
        min_sentence_tokens: z.number().int().min(1).default(3),
        /** Above this share of unsupported sentences the check gives `severity`; below, a warning. */
        max_unsupported_ratio: z.number().min(0).max(1).default(0.5),
      }).prefault({}),
      numeric_consistency: check("fail", {}).prefault({}),
      honest_abstention: check("fail", {
        /** Case-insensitive regular expressions that mark an answer as declining to answer. */
        abstention_patterns: z
          .array(pattern)
          .default([
            "\\b(not|no|isn't|is not|aren't) (available|provided|mentioned|stated|specified|given|found|covered|addressed)\\b",
            "\\b(do|does|did) not (say|mention|state|specify|contain|provide|include|cover)\\b",
            "\\b(don't|doesn't|didn't) (say|mention|state|specify|contain|provide|include|cover|know)\\b",
            "\\b(i|we) (do not|don't|cannot|can't|could not|couldn't|am unable to|are unable to|was unable to|were unable to) (know|tell|find|locate|answer|determine|confirm)\\b",
            "\\b(no|insufficient|not enough) (relevant |specific |reliable )?(information|evidence|data|details|sources?|mention)\\b",
            "\\bunable to (answer|find|locate|determine|confirm)\\b",
            "\\bcannot be (answered|determined|confirmed)\\b",
            "(没有|无|未)(找到|提及|提到|说明|相关|足够|记载)",
            "(无法|不能|难以|未能)(回答|确定|判断|找到|得知|确认)",
            "(不知道|不清楚|资料中没有|来源中没有|文档中没有)",
          ]),
      }).prefault({}),
    })
    .prefault({}),
  /** What a product should do with each verdict (seed 004 section 8). */
  actions: z
    .object({
      pass: GateActionSchema.default("show"),
      partial: GateActionSchema.default("show_with_warning"),
      fail: GateActionSchema.default("refuse"),
      skipped: GateActionSchema.default("show_with_warning"),
    })
    .prefault({}),
});
export type GateConfig = z.infer<typeof GateConfigSchema>;
export type CheckName = keyof GateConfig["checks"];

/** A deep-partial override as accepted in EvaluatorInput.config and config files. */
export const GateConfigOverrideSchema = z
  .object({
    checks: z
      .object(
        Object.fromEntries(
          Object.entries(GateConfigSchema.shape.checks.unwrap().shape).map(([name, schema]) => [
            name,
            schema.unwrap().partial().strict().optional(),
          ]),
        ) as unknown as {
          [K in CheckName]: z.ZodOptional<z.ZodType<Partial<GateConfig["checks"][K]>>>;
        },
      )
      .strict()
      .optional(),
    actions: GateConfigSchema.shape.actions.unwrap().partial().strict().optional(),
  })
  .strict();
export type GateConfigOverride = z.infer<typeof GateConfigOverrideSchema>;

export const EvaluatorInputSchema = z.object({
  conversation_id: id,
  message_id: id,
  retrieval_record: RetrievalRecordSchema,
  retrieval_hits: z.array(RetrievalHitSchema).max(LIMITS.hits),
  generation_record: GenerationRecordSchema,
  generation_output: GenerationOutputSchema,
  config: GateConfigOverrideSchema.optional(),
});
export type EvaluatorInput = z.infer<typeof EvaluatorInputSchema>;
export type RetrievalHit = z.infer<typeof RetrievalHitSchema>;
export type Citation = z.infer<typeof CitationSchema>;

/** Seed 004 section 4.3. `detail` is JSON-serializable and explains the status. */
export const EvaluationCheckSchema = z.object({
  name: z.string(),
  status: CheckStatusSchema,
  detail: z.record(z.string(), z.unknown()),
});
export type EvaluationCheck = z.infer<typeof EvaluationCheckSchema>;

/** The pure verdict of evaluateGate, before anything is stored. */
export const GateVerdictSchema = z.object({
  status: GateStatusSchema,
  action: GateActionSchema,
  rule_version: z.string(),
  checks: z.array(EvaluationCheckSchema),
  /** Ratios in [0,1]: citation_coverage, sentence_support, numeric_consistency, marker_resolution. */
  scores: z.record(z.string(), z.number()),
  config: GateConfigSchema,
});
export type GateVerdict = z.infer<typeof GateVerdictSchema>;
