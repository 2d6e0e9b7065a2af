// How far a judge agrees with people on hand-labelled answers: agreement, Cohen's κ, each system's
// pass rate as people and as the judge see it, and whether the judge ranks the systems as people
// do; and, for groundedness, the ROC AUC of a score against supported / unsupported labels. The
// labelled sets are in ./fixtures (README there); the bench and a regression test read them.

import { readFileSync } from "node:fs";
import { z } from "zod";
import { ContextItemSchema } from "../context.js";

/** One labelled answer: a system's answer to a question with references, judged by a person. */
export const LabelledAnswerSchema = z.object({
  id: z.string(),
  lang: z.enum(["en", "zh"]),
  question: z.string(),
  ground_truths: z.array(z.string()).min(1),
  system: z.string(),
  answer: z.string(),
  /** The person's verdict: does the answer correctly answer the question? */
  human_correct: z.boolean(),
});
export type LabelledAnswer = z.infer<typeof LabelledAnswerSchema>;

/** One labelled attribution item: is everything the answer says supported by the contexts? */
export const LabelledAttributionSchema = z.object({
  id: z.string(),
  lang: z.enum(["en", "zh"]),
  contexts: z.array(ContextItemSchema).min(1),
  answer: z.string(),
  human_supported: z.boolean(),
});
export type LabelledAttribution = z.infer<typeof LabelledAttributionSchema>;

/** The lines of a JSONL file, each parsed by `schema`; a bad line throws naming its number. */
export function readLabelled<T>(path: string | URL, schema: z.ZodType<T>): T[] {
  const lines = readFileSync(path, "utf8").split("\n");
  const rows: T[] = [];
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    const parsed = schema.safeParse(JSON.parse(line));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(
        `${String(path)} line ${index + 1}: ${issue?.path.join(".") ?? "(line)"}: ${issue?.message}`,
      );
    }
    rows.push(parsed.data);
  });
  return rows;
}

export interface SystemRates {
  system: string;
  n: number;
  human_pass_rate: number;
  judge_pass_rate: number;
}

export interface AgreementReport {
  n: number;
  /** Share of answers where the judge's pass/fail equals the person's. */
  agreement: number;
  /** Cohen's κ of the two binary verdicts. */
  kappa: number;
  /** Answers people accept that the judge fails, and the reverse. */
  false_fail: number;
  false_pass: number;
  systems: SystemRates[];
  /** Kendall τ-b between the systems' human and judge pass rates. */
  ranking_tau: number;
  /** Systems by human pass rate and by judge pass rate, best first. */
  human_ranking: string[];
  judge_ranking: string[];
  /** Whether every pair of systems people rank apart is ranked the same way by the judge. */
  ranked_as_people: boolean;
  /** Ids of the answers where the judge and the person differ. */
  disagreements: string[];
}

/** Kendall τ-b of two paired lists. */
export function kendallTauB(x: readonly number[], y: readonly number[]): number {
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign((x[i] as number) - (x[j] as number));
      const dy = Math.sign((y[i] as number) - (y[j] as number));
      if (dx === 0 && dy === 0) continue;
      if (dx === 0) tiesX++;
      else if (dy === 0) tiesY++;
      else if (dx === dy) concordant++;
      else discordant++;
    }
  }
  const denominator = Math.sqrt(
    (concordant + discordant + tiesX) * (concordant + discordant + tiesY),
  );
  return denominator === 0 ? 0 : (concordant - discordant) / denominator;
}

/** Agreement of `judged` (the judge's pass/fail per answer) with the people's labels. */
export function agreementOf(
  items: readonly LabelledAnswer[],
  judged: readonly boolean[],
): AgreementReport {
  if (items.length !== judged.length) throw new Error("one judgement per labelled answer");
  let agree = 0;
  let falseFail = 0;
  let falsePass = 0;
  let humanYes = 0;
  let judgeYes = 0;
  const disagreements: string[] = [];
  const bySystem = new Map<string, { n: number; human: number; judge: number }>();
  items.forEach((item, i) => {
    const verdict = judged[i] as boolean;
    if (verdict === item.human_correct) agree++;
    else {
      disagreements.push(item.id);
      if (item.human_correct) falseFail++;
      else falsePass++;
    }
    if (item.human_correct) humanYes++;
    if (verdict) judgeYes++;
    const rates = bySystem.get(item.system) ?? { n: 0, human: 0, judge: 0 };
    rates.n++;
    if (item.human_correct) rates.human++;
    if (verdict) rates.judge++;
    bySystem.set(item.system, rates);
  });
  const n = items.length;
  const observed = agree / n;
  const chance = (humanYes / n) * (judgeYes / n) + (1 - humanYes / n) * (1 - judgeYes / n);
  const systems = [...bySystem].map(([system, r]) => ({
    system,
    n: r.n,
    human_pass_rate: r.human / r.n,
    judge_pass_rate: r.judge / r.n,
  }));
  const human = systems.map((s) => s.human_pass_rate);
  const judge = systems.map((s) => s.judge_pass_rate);
  let rankedAsPeople = true;
  for (let i = 0; i < systems.length; i++) {
    for (let j = 0; j < systems.length; j++) {
      if (
        (human[i] as number) > (human[j] as number) &&
        !((judge[i] as number) > (judge[j] as number))
      )
        rankedAsPeople = false;
    }
  }
  const by = (key: "human_pass_rate" | "judge_pass_rate") =>
    [...systems].sort((a, b) => b[key] - a[key]).map((s) => s.system);
  return {
    n,
    agreement: observed,
    kappa: chance === 1 ? 1 : (observed - chance) / (1 - chance),
    false_fail: falseFail,
    false_pass: falsePass,
    systems,
    ranking_tau: kendallTauB(human, judge),
    human_ranking: by("human_pass_rate"),
    judge_ranking: by("judge_pass_rate"),
    ranked_as_people: rankedAsPeople,
    disagreements,
  };
}

/**
 * ROC AUC of `scores` against binary `labels` (true = positive): the probability that a random
 * positive scores above a random negative, ties counting half (the Mann-Whitney U statistic).
 */
export function rocAuc(scores: readonly number[], labels: readonly boolean[]): number {
  if (scores.length !== labels.length) throw new Error("one score per label");
  const positives: number[] = [];
  const negatives: number[] = [];
  scores.forEach((score, i) => (labels[i] ? positives : negatives).push(score));
  if (positives.length === 0 || negatives.length === 0) throw new Error("AUC needs both labels");
  let wins = 0;
  for (const p of positives) {
    for (const q of negatives) wins += p > q ? 1 : p === q ? 0.5 : 0;
  }
  return wins / (positives.length * negatives.length);
}
