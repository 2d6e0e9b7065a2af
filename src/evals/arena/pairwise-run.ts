import type { ContextItem, LanguageSetting } from "../../judges/index.js";
import {
  type CallRecord,
  type FailureKind,
  type LlmClient,
  type ModelUsage,
  usageByModel,
} from "../../llm/index.js";
import type { ContestantData } from "./collect.js";
import { MISSING, type PairOutcomes } from "./outcomes.js";
import { judgeSwapped } from "./pairwise.js";

export interface ArenaQuestion {
  id: string;
  text: string;
  references: string[];
}

export interface PairwiseJudgeError {
  a: string;
  b: string;
  question_id: string;
  message: string;
  /** What kind of failure it was, so many of one kind read as one line with a count. */
  kind: FailureKind;
}

export interface PairwiseRun {
  pairs: PairOutcomes[];
  /** Position flips of the judge model: pairs whose two orders disagreed, over pairs judged both ways. */
  flip_rate: Record<string, { judged: number; flipped: number; rate: number | null }>;
  /** Kept apart from ties: these questions do not count for the pair. */
  errors: PairwiseJudgeError[];
  /** A few reasoned verdicts per pair, to read why the judge decided. */
  examples: { a: string; b: string; question_id: string; verdict: string; reasoning: string }[];
  /** The judge's tokens by model, both orders of every pair, failed ones included. */
  usage: ModelUsage[];
  /** Every judged pair on every question, for the arena's question-by-question view. */
  verdicts: PairwiseVerdict[];
}

/** One pair judged on one question, both orders. */
export interface PairwiseVerdict {
  a: string;
  b: string;
  question_id: string;
  /** From a's side: 1 a won, -1 b won, 0 a tie (also when the two orders disagreed). */
  outcome: 1 | 0 | -1;
  /** The two orders disagreed (position bias): counted as a tie. */
  flipped: boolean;
  /** The judge's reasoning with a's answer shown first, then with b's first. */
  reasoning: [string, string];
}

export interface PairwiseRunOptions {
  names: readonly string[];
  data: readonly ContestantData[];
  questions: readonly ArenaQuestion[];
  client: LlmClient;
  language: LanguageSetting;
  noCache: boolean;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/** Both answers' contexts, alternating and each once, in the same order for both orderings. */
function sharedContexts(x: readonly ContextItem[], y: readonly ContextItem[]): ContextItem[] {
  const out: ContextItem[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    for (const item of [x[i], y[i]]) {
      if (item === undefined) continue;
      const text = typeof item === "string" ? item : item.content;
      if (seen.has(text)) continue;
      seen.add(text);
      out.push(item);
    }
  }
  return out;
}

/**
 * Every pair of contestants on every question both answered, judged twice with positions swapped.
 * Calls run `concurrency` at a time (default 8); the judge client's cache answers re-runs.
 */
export async function runPairwise(options: PairwiseRunOptions): Promise<PairwiseRun> {
  const { names, data, questions, client } = options;
  const pairs: PairOutcomes[] = [];
  const tasks: { pair: PairOutcomes; q: number }[] = [];
  for (let a = 0; a < names.length; a++) {
    for (let b = a + 1; b < names.length; b++) {
      const pair = { a, b, outcomes: new Int8Array(questions.length).fill(MISSING) };
      pairs.push(pair);
      questions.forEach((_, q) => {
        if (data[a]!.answers[q] !== null && data[b]!.answers[q] !== null) tasks.push({ pair, q });
      });
    }
  }
  const model = client.model;
  const flips = { judged: 0, flipped: 0 };
  const errors: PairwiseJudgeError[] = [];
  const examples: PairwiseRun["examples"] = [];
  const verdicts: PairwiseVerdict[] = [];
  const calls: CallRecord[] = [];
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const { pair, q } = tasks[next++]!;
      const question = questions[q]!;
      const [x, y] = [data[pair.a]!, data[pair.b]!];
      const judged = await judgeSwapped(
        {
          question: question.text,
          references: question.references,
          contexts: sharedContexts(x.contexts[q]!, y.contexts[q]!),
          answerX: x.answers[q]!,
          answerY: y.answers[q]!,
        },
        {
          client,
          language: options.language,
          noCache: options.noCache,
          ...(options.signal ? { signal: options.signal } : {}),
        },
      );
      calls.push(...judged.first.calls, ...judged.second.calls);
      const [a, b] = [names[pair.a]!, names[pair.b]!];
      if (!judged.ok) {
        errors.push({ a, b, question_id: question.id, message: judged.error, kind: judged.kind });
      } else {
        pair.outcomes[q] = judged.outcome;
        verdicts.push({
          a,
          b,
          question_id: question.id,
          outcome: judged.outcome === 1 ? 1 : judged.outcome === -1 ? -1 : 0,
          flipped: judged.flipped,
          reasoning: [
            judged.first.ok ? judged.first.reasoning : "",
            judged.second.ok ? judged.second.reasoning : "",
          ],
        });
        flips.judged++;
        if (judged.flipped) flips.flipped++;
        if (examples.filter((e) => e.a === a && e.b === b).length < 3 && judged.first.ok) {
          examples.push({
            a,
            b,
            question_id: question.id,
            verdict: judged.flipped
              ? "tie (the orders disagreed)"
              : judged.outcome === 1
                ? a
                : judged.outcome === -1
                  ? b
                  : "tie",
            reasoning: judged.first.reasoning,
          });
        }
      }
      options.onProgress?.(++done, tasks.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 8) }, worker));
  return {
    pairs,
    flip_rate: {
      [model]: { ...flips, rate: flips.judged === 0 ? null : flips.flipped / flips.judged },
    },
    errors,
    examples,
    verdicts,
    usage: usageByModel(calls),
  };
}
