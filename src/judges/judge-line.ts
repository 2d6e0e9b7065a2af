import { z } from "zod";
import type { LlmClient } from "../llm/index.js";
import type { JudgesConfig } from "./config.js";
import { claims, offlineClaims } from "./claims/index.js";
import { ContextItemSchema } from "./context.js";
import { containsReferenceJudge, offline, tokenPrecisionJudge } from "./offline/index.js";
import { reference } from "./reference.js";
import { referencesOf } from "./references.js";
import { type Agreement, repeatJudge } from "./repeat.js";
import { JUDGE_KINDS, type JudgeCallOptions, type JudgeName, type JudgeResult } from "./result.js";
import { review } from "./review.js";
import { rubric } from "./rubric.js";

export { JUDGE_KINDS };
export type JudgeKind = JudgeName;

/** Judges that call an LLM; `offline`, `claims_offline` and the baselines never do. */
export const LLM_JUDGES: readonly JudgeKind[] = ["review", "rubric", "reference", "claims"];

/** Judges that compare the answer with a ground truth, and refuse a line without one. */
const REFERENCE_JUDGES: readonly JudgeKind[] = [
  "reference",
  "contains_reference",
  "claims",
  "claims_offline",
];

/** Whether a judge needs a ground truth (an evaluation skips it on a question without one). */
export function needsReference(kind: JudgeKind): boolean {
  return REFERENCE_JUDGES.includes(kind);
}

/** Whether a judge calls an LLM (and so needs the judge role configured). */
export function needsLlm(kind: JudgeKind): boolean {
  return LLM_JUDGES.includes(kind);
}

/** One line of `ragjudge judge` input, and the body of `POST /api/v1/judge`. */
export const JudgeLineSchema = z.object({
  id: z.string().max(256).optional(),
  question: z.string().trim().min(1, "a non-empty question").max(20_000),
  answer: z.string().max(200_000),
  contexts: z.array(ContextItemSchema).max(1_000).default([]),
  ground_truth: z.string().max(200_000).optional(),
  /** Several acceptable references; reference judges score against the best-matching one. */
  ground_truths: z.array(z.string().max(200_000)).max(100).optional(),
});
export type JudgeLine = z.infer<typeof JudgeLineSchema>;

/**
 * What a line lacks for a set of judges: `reference`, `contains_reference` and the claims judges
 * need a ground truth, `token_precision` contexts. The CLI's line schema and the API's request schema both read it.
 */
export function missingForJudges(
  line: Pick<JudgeLine, "contexts" | "ground_truth" | "ground_truths">,
  kinds: readonly JudgeKind[],
): { path: string[]; message: string }[] {
  const issues: { path: string[]; message: string }[] = [];
  const needsReference = kinds.find((kind) => REFERENCE_JUDGES.includes(kind));
  if (needsReference && referencesOf(line).length === 0) {
    issues.push({ path: ["ground_truth"], message: `required by the ${needsReference} judge` });
  }
  if (kinds.includes("token_precision") && line.contexts.length === 0) {
    issues.push({ path: ["contexts"], message: "required by the token_precision judge" });
  }
  return issues;
}

/** The line schema for a set of judges: what each needs is required (missingForJudges). */
export function judgeLineSchemaFor(kinds: readonly JudgeKind[]) {
  return JudgeLineSchema.superRefine((line, context) => {
    for (const issue of missingForJudges(line, kinds))
      context.addIssue({ code: "custom", ...issue });
  });
}

export interface JudgeLineOptions {
  /** The judge role's client (never the generator's); required for the LLM judges. */
  client?: LlmClient;
  config: JudgesConfig;
  signal?: AbortSignal;
  noCache?: boolean;
}

/**
 * A judge's result on one line. With `repeat` > 1 it is the first trial (the ordinary single run)
 * plus every trial and their agreement (pass^N, score standard deviation).
 */
export type JudgeOutcome = JudgeResult & { agreement?: Agreement; trials?: JudgeResult[] };

/** Runs one judge on one line; `config.repeat` > 1 runs it N times with different seeds. */
async function runKind(
  kind: JudgeKind,
  line: JudgeLine,
  options: JudgeLineOptions,
): Promise<JudgeOutcome> {
  if (kind === "offline") {
    return offline(
      {
        question: line.question,
        answer: line.answer,
        contexts: line.contexts,
        ...(line.ground_truth !== undefined ? { ground_truth: line.ground_truth } : {}),
        ...(line.ground_truths !== undefined ? { ground_truths: line.ground_truths } : {}),
      },
      { config: options.config },
    );
  }
  const references = {
    ...(line.ground_truth !== undefined ? { ground_truth: line.ground_truth } : {}),
    ...(line.ground_truths !== undefined ? { ground_truths: line.ground_truths } : {}),
  };
  if (kind === "claims_offline") {
    const { question, answer, contexts } = line;
    return offlineClaims({ question, answer, contexts, ...references }, { config: options.config });
  }
  if (kind === "token_precision" || kind === "contains_reference") {
    const input = {
      question: line.question,
      answer: line.answer,
      contexts: line.contexts,
      ...(line.ground_truth !== undefined ? { ground_truth: line.ground_truth } : {}),
      ...(line.ground_truths !== undefined ? { ground_truths: line.ground_truths } : {}),
    };
    return kind === "token_precision" ? tokenPrecisionJudge(input) : containsReferenceJudge(input);
  }
  const client = options.client;
  if (!client) throw new Error(`the ${kind} judge needs an LLM client`);
  const common: JudgeCallOptions = {
    client,
    config: options.config,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.noCache ? { noCache: true } : {}),
  };
  const judge = (args: JudgeCallOptions): Promise<JudgeResult> => {
    const { question, answer, contexts } = line;
    if (kind === "review") return review({ ...args, question, answer, contexts });
    if (kind === "rubric") return rubric({ ...args, question, answer, documents: contexts });
    if (kind === "claims") return claims({ ...args, question, answer, contexts, ...references });
    return reference({
      ...args,
      question,
      answer,
      ...(line.ground_truth !== undefined ? { ground_truth: line.ground_truth } : {}),
      ...(line.ground_truths !== undefined ? { ground_truths: line.ground_truths } : {}),
    });
  };
  if (options.config.repeat <= 1) return judge(common);
  const { trials, agreement } = await repeatJudge(judge, common, options.config.repeat);
  const first = trials[0];
  if (!first) throw new Error("repeatJudge returned no trial");
  return { ...first, agreement, trials };
}

/** Runs every requested judge on one line, concurrently; each keeps its own result shape. */
export async function judgeLine(
  line: JudgeLine,
  kinds: readonly JudgeKind[],
  options: JudgeLineOptions,
): Promise<Partial<Record<JudgeKind, JudgeOutcome>>> {
  const results = await Promise.all(kinds.map((kind) => runKind(kind, line, options)));
  return Object.fromEntries(kinds.map((kind, i) => [kind, results[i]]));
}
