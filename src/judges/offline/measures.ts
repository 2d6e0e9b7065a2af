// Everything the offline judge measures about one answer, in one pass: the reference metrics
// (exact match, F1, ROUGE-L), groundedness, abstention and the few surface signals clarity uses.
// heuristic-rubric.ts turns these numbers into 1-10 scores; nothing here scores.

import { DEFAULT_GATE_CONFIG, isAbstention } from "../../gate/index.js";
import { splitSentences } from "../../text/index.js";
import {
  addedSupport,
  addedUnits,
  anyEvidence,
  EvidenceText,
  type Groundedness,
  groundednessOf,
  type StatedFacts,
  statedFacts,
} from "./groundedness.js";
import { referencesOf } from "../references.js";
import { type AttachedNumber, attachNumbers } from "./number-attachment.js";
import {
  matchReferences,
  type ReferenceComponents,
  type ReferenceMatch,
} from "./reference-match.js";
import { type RougeL, rougeLOfTokens } from "./rouge.js";
import { exactMatchOfTokens, squadTokens, type TokenF1, tokenF1OfTokens } from "./squad.js";
import {
  evidenceWords,
  type WordSupport,
  type WordSupportOptions,
  wordSupport,
} from "./word-support.js";

/** What the offline judge reads: the LLM judges' fields, contexts already as plain text. */
export interface MeasureInput {
  question: string;
  answer: string;
  contexts: readonly string[];
  ground_truth?: string | undefined;
  /** Several acceptable references; with ground_truth, all of them count. */
  ground_truths?: readonly string[] | undefined;
}

/**
 * Uncertainty the gate's abstention patterns do not list ("I'm not sure", "I don't have that
 * information", "资料里没有"): added to the default patterns, so an answer that only hedges is
 * judged as declining, not as a claim.
 */
export const UNCERTAINTY_PATTERNS: readonly string[] = [
  "\\b(i'm|i am|we're|we are) not (sure|certain)\\b",
  "\\b(don't|do not|doesn't|does not) (have|give) (that|the|this|enough|any)\\b",
  "(不确定|不太清楚|说不准)",
  "(资料|文档|来源|文献)[里中内]?(没有|并未|未)",
];

export interface MeasureOptions {
  /**
   * Case-insensitive regexes marking a sentence that declines to answer; default the gate's
   * `checks.honest_abstention.abstention_patterns`, so the gate and this judge agree on what an
   * abstention is.
   */
  abstentionPatterns?: readonly string[];
  /** The groundedness score's components, all on by default (the public bench switches each off). */
  groundedness?: GroundednessComponents;
  /** The reference match's components, all on by default. */
  reference?: ReferenceComponents;
}

/**
 * What the groundedness score is made of; each can be switched off to measure what it adds
 * (`npm run bench -- judges-public` prints the ablation).
 */
export interface GroundednessComponents extends WordSupportOptions {
  /** Charge each number swapped or unstated (number-attachment.ts) as MISATTACHED_WEIGHT words. */
  numberAttachment?: boolean;
}

/** none: every sentence makes claims; partial: some decline; full: nothing but declining. */
export type Abstention = "none" | "partial" | "full";

export interface OfflineMeasures {
  /** Against the references, each metric at its maximum over them (SQuAD); null without one. */
  exact_match: 0 | 1 | null;
  f1: TokenF1 | null;
  rouge_l: RougeL | null;
  /** Whether the answer states the best-matching reference; null without references. */
  reference: ReferenceMatch | null;
  /** The references given (blank ones and repeats left out). */
  references: number;
  /**
   * Groundedness of the answer's claims (abstaining sentences left out, as the gate does) in the
   * contexts; null without contexts.
   */
  groundedness: Groundedness | null;
  /**
   * The answer's claims supported by the contexts, in one number: word support (word-support.ts)
   * halved per misattached number; null without contexts or claims.
   */
  groundedness_score: number | null;
  /** The claims' words against the contexts' (word-support.ts); null without contexts. */
  word_support: WordSupport | null;
  /** Each number the claims state: attached, swapped (its unit or word is another's), unstated. */
  attached_numbers: AttachedNumber[];
  /**
   * The same in the contexts and the ground truth together: the evidence accuracy is judged by.
   * Null with neither (or when the ground truth itself abstains and there are no contexts).
   */
  support: Groundedness | null;
  abstention: Abstention;
  /** Whether the best-matching reference itself says the answer is not known; null without one. */
  ground_truth_abstains: boolean | null;
  /**
   * Share of the ground truth's content tokens and numbers (beyond the question's, numbers counted
   * twice: addedSupport) that the answer states; null without a ground truth or when it adds
   * nothing to the question.
   */
  ground_truth_coverage: number | null;
  /** Up to 8 of those the answer lacks. */
  ground_truth_missing: string[];
  /** The same share in the contexts: whether retrieval found the answer at all. */
  ground_truth_in_contexts: number | null;
  /** The answer has no letter or digit at all. */
  empty: boolean;
  /**
   * What the answer's claims add to the question, whatever the evidence (addedUnits: tokens, and
   * numbers counted twice). Completeness reads it when there is nothing to check against.
   */
  added_units: number;
  /** Sub-questions, counted from interrogatives (1-4). */
  sub_questions: number;
  /** Distinct content tokens of the answer. */
  answer_tokens: number;
  /** Share of the question's content tokens the answer mentions; null when the question has none. */
  question_overlap: number | null;
  /** Share of the answer's content-token 4-grams that repeat an earlier one. */
  repetition: number;
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ENGLISH_INTERROGATIVE = /\b(?:what|when|where|who|whom|whose|which|why|how)\b/gi;
const CHINESE_INTERROGATIVE = /什么|何时|哪|谁|多少|几|为什么|为何|如何|怎么|怎样|是否/g;

/** "When was it founded, and by whom?" asks two things; at least 1, at most 4. */
export function countSubQuestions(question: string): number {
  const english = question.match(ENGLISH_INTERROGATIVE)?.length ?? 0;
  const chinese = question.match(CHINESE_INTERROGATIVE)?.length ?? 0;
  return Math.min(4, Math.max(1, english + chinese));
}

/** The answer's claims: the text without the sentences that decline to answer. */
function claimsOf(
  answer: string,
  patterns: readonly string[],
): { claims: string; kind: Abstention } {
  if (!isAbstention(answer, patterns)) return { claims: answer, kind: "none" };
  const kept: string[] = [];
  for (const sentence of splitSentences(answer)) {
    if (!isAbstention(sentence.text, patterns)) kept.push(sentence.text);
  }
  return { claims: kept.join("\n"), kind: "partial" };
}

/** Share of content-token 4-grams that repeat an earlier 4-gram: filler and loops, not style. */
function repetitionOf(tokens: readonly string[]): number {
  const grams = tokens.length - 3;
  if (grams <= 0) return 0;
  const ids = new Map<string, number>();
  const sequence = tokens.map((token) => {
    let id = ids.get(token);
    if (id === undefined) {
      id = ids.size;
      ids.set(token, id);
    }
    return id;
  });
  // A 4-gram as one number in base `k`: exact while k⁴ stays below 2⁵³.
  const k = ids.size;
  const exact = k < 9_000;
  const seen = new Set<number | string>();
  let repeats = 0;
  for (let i = 0; i < grams; i++) {
    const a = sequence[i] as number;
    const b = sequence[i + 1] as number;
    const c = sequence[i + 2] as number;
    const d = sequence[i + 3] as number;
    const gram = exact ? ((a * k + b) * k + c) * k + d : `${a},${b},${c},${d}`;
    if (seen.has(gram)) repeats++;
    else seen.add(gram);
  }
  return repeats / grams;
}

function questionOverlap(question: StatedFacts, answerTokens: ReadonlySet<string>): number | null {
  if (question.tokens.length === 0) return null;
  let found = 0;
  for (const token of question.tokens) if (answerTokens.has(token)) found++;
  return found / question.tokens.length;
}

const DEFAULT_PATTERNS: readonly string[] = [
  ...DEFAULT_GATE_CONFIG.checks.honest_abstention.abstention_patterns,
  ...UNCERTAINTY_PATTERNS,
];

/** The index of the largest of `values` (the first on ties). */
function argMax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++)
    if ((values[i] as number) > (values[best] as number)) best = i;
  return best;
}

export function measureAnswer(input: MeasureInput, options: MeasureOptions = {}): OfflineMeasures {
  const patterns = options.abstentionPatterns ?? DEFAULT_PATTERNS;
  const { question, answer, contexts } = input;
  const references = referencesOf(input);
  // Each text is tokenized once: segmenting Chinese is the largest cost of a call.
  const answerFacts = statedFacts(answer);
  const questionFacts = statedFacts(question);
  const asked = new EvidenceText([question]);
  const contextEvidence = new EvidenceText(contexts);
  const split = claimsOf(answer, patterns);
  let claimFacts = answerFacts;
  let abstention = split.kind;
  if (abstention === "partial") {
    claimFacts = statedFacts(split.claims);
    if (claimFacts.tokens.length === 0 && claimFacts.numbers.length === 0) abstention = "full";
    // "I don't know, but probably 1650": a figure in a declining sentence that neither the
    // question nor the contexts state is a guess, and the whole answer is judged as claims.
    const claimed = new Set(claimFacts.numbers.map((mention) => mention.value));
    const guesses = answerFacts.numbers.some(
      (mention) =>
        !claimed.has(mention.value) && !asked.states(mention) && !contextEvidence.states(mention),
    );
    if (guesses) {
      claimFacts = answerFacts;
      abstention = "none";
    }
  }
  const hasContexts = contexts.some((context) => context.trim() !== "");
  const claimed = groundednessOf(claimFacts, contextEvidence, asked);
  const measured = hasContexts ? claimed : null;
  const claimsText = abstention === "none" ? answer : split.claims;
  const attached = hasContexts ? attachNumbers(claimsText, contexts) : [];
  const components = options.groundedness ?? {};
  // A figure attached to the wrong thing, or stated nowhere, is an unsupported claim.
  const misattached =
    components.numberAttachment === false
      ? 0
      : attached.filter((number) => number.verdict !== "attached").length;
  const words = hasContexts
    ? wordSupport(claimsText, evidenceWords(contexts), components, misattached)
    : null;
  const groundednessScore = words?.score ?? null;

  let exact: 0 | 1 | null = null;
  let f1: TokenF1 | null = null;
  let rouge: RougeL | null = null;
  let match: ReferenceMatch | null = null;
  let truthAbstains: boolean | null = null;
  let coverage: number | null = null;
  let missing: string[] = [];
  let inContexts: number | null = null;
  let support = measured;
  if (references.length > 0) {
    // SQuAD's rule: each metric at its maximum over the references, taken separately.
    const predicted = squadTokens(answer);
    const expected = references.map(squadTokens);
    exact = expected.some((tokens) => exactMatchOfTokens(predicted, tokens) === 1) ? 1 : 0;
    const f1s = expected.map((tokens) => tokenF1OfTokens(predicted, tokens));
    f1 = f1s[argMax(f1s.map((f) => f.f1))] as TokenF1;
    const rouges = expected.map((tokens) => rougeLOfTokens(predicted, tokens));
    rouge = rouges[argMax(rouges.map((r) => r.f_measure))] as RougeL;
    const abstains = references.map((reference) => isAbstention(reference, patterns));
    match = matchReferences(
      {
        question,
        claims: claimsText,
        abstained: abstention === "full",
        declines: abstention !== "none",
        references,
        referenceAbstains: abstains,
        ...(options.reference ? { components: options.reference } : {}),
      },
      (texts) => new EvidenceText(texts),
    );
    const groundTruth = references[match.reference_index] as string;
    truthAbstains = abstains[match.reference_index] as boolean;
    if (!truthAbstains) {
      const truthFacts = statedFacts(groundTruth);
      const truth = new EvidenceText([groundTruth]);
      const covered = groundednessOf(truthFacts, new EvidenceText([answer]), asked);
      coverage = addedSupport(covered);
      missing = covered.unsupported;
      if (hasContexts) {
        const found = groundednessOf(truthFacts, contextEvidence, asked);
        inContexts = addedSupport(found) ?? found.score;
      }
      // Every reference is true, so each supports what the answer adds.
      const others = references.filter((_, i) => i !== match?.reference_index && !abstains[i]);
      const evidence =
        others.length === 0
          ? anyEvidence(contextEvidence, truth)
          : anyEvidence(contextEvidence, truth, new EvidenceText(others));
      support = groundednessOf(claimFacts, evidence, asked);
    }
  }

  const answerTokens = new Set(answerFacts.tokens);
  return {
    exact_match: exact,
    f1,
    rouge_l: rouge,
    reference: match,
    references: references.length,
    groundedness: measured,
    groundedness_score: groundednessScore,
    word_support: words,
    attached_numbers: attached,
    support,
    abstention,
    empty: !LETTER_OR_DIGIT.test(answer),
    added_units: addedUnits(claimed),
    ground_truth_abstains: truthAbstains,
    ground_truth_coverage: coverage,
    ground_truth_missing: missing,
    ground_truth_in_contexts: inContexts,
    sub_questions: countSubQuestions(question),
    answer_tokens: answerTokens.size,
    question_overlap: questionOverlap(questionFacts, answerTokens),
    repetition: repetitionOf(answerFacts.sequence),
  };
}
