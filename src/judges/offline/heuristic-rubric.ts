// Seed 002's rubric without an LLM: accuracy, completeness and clarity (1-10), weighted 0.5 / 0.3 /
// 0.2 into weighted_score, is_passing when accuracy >= 7, in the LLM rubric's field names. The
// scores are a deterministic mapping of lexical measures (measures.ts), documented in
// docs/judges.md "Offline judges"; the result says it is heuristic.

import {
  type CodedMessage,
  codedMessage,
  type MessageCode,
  type MessageParams,
  type MessagePart,
  messagePart,
} from "../../text/index.js";
import { DEFAULT_JUDGES_CONFIG } from "../config.js";
import { round } from "../result.js";
import { type EvaluationMetrics, type RubricWeights, weightedScore } from "../rubric.js";
import { type Groundedness, supportedUnits } from "./groundedness.js";
import type { OfflineMeasures } from "./measures.js";
import type { ReferenceConflict, ReferenceMatch } from "./reference-match.js";

/** What accuracy was judged against: the ground truth (with the contexts), the contexts, nothing. */
export type HeuristicBasis = "ground_truth" | "contexts" | "none";

/** Seed 002's FineGrainedEvaluationResult, computed rather than asked for. */
export interface HeuristicRubric {
  metrics: EvaluationMetrics;
  /** The signals behind the scores, one line. */
  analysis: string;
  /** `analysis` as a code with parameters, worded in the reader's language. */
  analysis_message: CodedMessage;
  /** Starts "Heuristic (no LLM): ". */
  reason: string;
  suggestion: string;
  /** `reason` as a code with parameters, worded in the reader's language (text/user-messages.ts). */
  reason_message: CodedMessage;
  /** `suggestion` as a code with parameters. */
  suggestion_message: CodedMessage;
  is_passing: boolean;
  heuristic: true;
  basis: HeuristicBasis;
}

export interface HeuristicRubricOptions {
  /** Default the judges config's rubric weights (0.5 / 0.3 / 0.2). */
  weights?: RubricWeights;
  /** is_passing when accuracy >= this; default the judges config's (7). */
  passMinAccuracy?: number;
}

/** Support below this share of added tokens counts as none, above SUPPORT_FULL as complete. */
export const SUPPORT_NONE = 0.2;
export const SUPPORT_FULL = 0.8;
/** The ground truth counts as retrieved when the contexts hold this share of it. */
export const GROUND_TRUTH_RETRIEVED = 0.6;

/** Without a ground truth, a sub-question counts as answered by this many supported units. */
export const UNITS_PER_SUB_QUESTION = 3;

/** The best clarity a lexical check can vouch for: it cannot see structure or reasoning. */
const CLARITY_CEILING = 9;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** 0 at or below SUPPORT_NONE, 1 at or above SUPPORT_FULL, linear between. */
export function supportRamp(share: number): number {
  return clamp((share - SUPPORT_NONE) / (SUPPORT_FULL - SUPPORT_NONE), 0, 1);
}

/** A share as a whole percentage, the number a message's "{share}%" shows. */
function percent(share: number): number {
  return Math.round(share * 100);
}

/** How far the answer's additions are supported: ramp(token share) × (number share)². */
interface ClaimSupport {
  /** Supported share of added tokens, or null when the answer adds none. */
  tokens: number | null;
  /** Supported share of stated numbers, or null when it states none. */
  numbers: number | null;
  /** ramp(tokens) × numbers²; 1 when the answer adds nothing. */
  factor: number;
  adds: boolean;
  unsupported: string[];
}

function claimSupport(support: Groundedness): ClaimSupport {
  const tokens =
    support.added_tokens > 0 ? support.supported_added_tokens / support.added_tokens : null;
  const numbers = support.numbers > 0 ? support.supported_numbers / support.numbers : null;
  // A wrong figure is the seed's "數據錯誤" (1-4): squaring makes one bad number in two cost 3/4.
  const factor = supportRamp(tokens ?? 1) * (numbers ?? 1) ** 2;
  return {
    tokens,
    numbers,
    factor,
    adds: tokens !== null || numbers !== null,
    unsupported: support.unsupported,
  };
}

function describeSupport(
  claims: ClaimSupport,
  against: "offline.note.support_references" | "offline.note.support_contexts",
): MessagePart {
  const words = claims.tokens === null ? null : percent(claims.tokens);
  const numbers = claims.numbers === null ? null : percent(claims.numbers);
  const what =
    words !== null && numbers !== null
      ? messagePart("offline.support.words_and_numbers", { words, numbers })
      : words !== null
        ? messagePart("offline.support.words", { words })
        : messagePart("offline.support.numbers", { numbers: numbers ?? 0 });
  return messagePart(against, { what });
}

/** A contradiction as a clause of the reason. */
function conflictPart(conflict: ReferenceConflict): MessagePart {
  switch (conflict.kind) {
    case "other_value":
      return messagePart("offline.conflict.other_value", {
        answer: conflict.answer,
        reference: conflict.reference,
      });
    case "denies_value":
      return messagePart("offline.conflict.denies_value", { what: conflict.what });
    case "denies_reference":
      return messagePart("offline.conflict.denies_reference", { what: conflict.what });
  }
}

/** Notes are the reason's clauses, suggestions its advice: each a code with its parameters. */
interface Scored {
  accuracy: number;
  completeness: number;
  notes: MessagePart[];
  suggestions: MessagePart[];
}

/** Scores of an answer that only declines (abstention "full"). */
function scoreAbstention(m: OfflineMeasures): Scored {
  if (m.ground_truth_abstains === true) {
    return {
      accuracy: 10,
      completeness: 8,
      notes: [messagePart("offline.note.declines_as_reference")],
      suggestions: [],
    };
  }
  if (m.f1 !== null) {
    const found = m.ground_truth_in_contexts;
    if (found !== null && found >= GROUND_TRUTH_RETRIEVED) {
      return {
        accuracy: 4,
        completeness: 1,
        notes: [messagePart("offline.note.declines_answer_retrieved", { share: percent(found) })],
        suggestions: [messagePart("offline.tip.answer_from_contexts")],
      };
    }
    return {
      accuracy: 9,
      completeness: 3,
      notes: [
        found === null
          ? messagePart("offline.note.declines_no_contexts")
          : messagePart("offline.note.declines_answer_missing", { share: percent(found) }),
      ],
      suggestions: [messagePart("offline.tip.improve_retrieval")],
    };
  }
  return {
    accuracy: 9,
    completeness: 5,
    notes: [messagePart("offline.note.declines_unchecked")],
    suggestions: [],
  };
}

/**
 * Accuracy and completeness against the best-matching reference (reference-match.ts). Accuracy
 * says whether what the answer states is right: stating the reference is 10 (9 when less precise,
 * "July 2016" or a surname), an unsupported addition costs at most 3 when there are contexts to
 * check it against (without them, extra context cannot be checked and costs nothing); part of the
 * reference with nothing wrong is 8, a vaguer value or a guess between two is 5-6 (seed 002's
 * "vague words"), not stating it is 3, contradicting it 1.5. Completeness is the share of the
 * reference's facts stated.
 */
function scoreAgainstReference(
  m: OfflineMeasures,
  match: ReferenceMatch,
  claims: ClaimSupport | null,
): Scored {
  const notes: MessagePart[] = [];
  const suggestions: MessagePart[] = [];
  const completeness = 1 + 9 * match.coverage;
  const which =
    m.references > 1
      ? messagePart("offline.which_reference", {
          index: match.reference_index + 1,
          total: m.references,
        })
      : "";
  if (match.missing.length > 0 && match.verdict !== "correct") {
    suggestions.push(messagePart("offline.tip.state_reference", { missing: match.missing }));
  }
  switch (match.verdict) {
    case "correct": {
      let accuracy = match.coarser ? 9 : 10;
      // Extra claims are checked only against contexts: a reference alone cannot refute them.
      if (claims !== null && m.groundedness !== null) accuracy -= 3 * (1 - claims.factor);
      notes.push(
        messagePart("offline.note.states_reference", { which, how: describeMatch(match) }),
      );
      if (claims?.adds && m.groundedness !== null) {
        notes.push(describeSupport(claims, "offline.note.support_references"));
      }
      return { accuracy, completeness: Math.max(completeness, 7), notes, suggestions };
    }
    case "partial":
      notes.push(
        match.hedged
          ? messagePart("offline.note.guesses", { which })
          : match.coarser
            ? messagePart("offline.note.less_precise", { which })
            : messagePart("offline.note.states_part", { which, share: percent(match.coverage) }),
      );
      return {
        accuracy: match.hedged ? 5 : match.coarser ? 6 : 8,
        completeness: Math.min(completeness, 6),
        notes,
        suggestions,
      };
    case "contradicted":
      notes.push(
        messagePart("offline.note.contradicts", {
          which,
          contradictions: match.conflicts.map(conflictPart),
        }),
      );
      suggestions.unshift(messagePart("offline.tip.correct"));
      return { accuracy: 1.5, completeness: Math.min(completeness, 4), notes, suggestions };
    default:
      notes.push(messagePart("offline.note.misses_reference", { which }));
      return { accuracy: 3, completeness: Math.min(completeness, 4), notes, suggestions };
  }
}

function describeMatch(match: ReferenceMatch): MessagePart {
  if (match.matched_by === "contains") return messagePart("offline.how.in_order");
  if (match.matched_by === "name") return messagePart("offline.how.last_name");
  if (match.coarser) return messagePart("offline.how.less_precisely");
  return messagePart("offline.how.facts", { share: percent(match.coverage) });
}

/** Scores of an answer that makes claims (abstention "none" or "partial"). */
function scoreClaims(m: OfflineMeasures, basis: HeuristicBasis): Scored {
  const notes: MessagePart[] = [];
  const suggestions: MessagePart[] = [];
  const claims = m.support === null ? null : claimSupport(m.support);
  if (claims !== null && claims.unsupported.length > 0) {
    suggestions.push(
      messagePart("offline.tip.remove_unsupported", { unsupported: claims.unsupported }),
    );
  }
  let accuracy: number;
  let completeness: number;
  if (m.exact_match === 1) {
    accuracy = 10;
    completeness = 10;
    notes.push(messagePart("offline.note.exact"));
  } else if (basis === "ground_truth" && m.ground_truth_abstains === true) {
    if (m.abstention === "partial") {
      // Declines as the ground truth does, and says what the sources do hold (seed 002's 9).
      accuracy = claims === null ? 5 : 1 + 9 * claims.factor;
      completeness = 8;
      notes.push(messagePart("offline.note.declines_like_reference"));
      if (claims !== null) notes.push(describeSupport(claims, "offline.note.support_contexts"));
    } else {
      accuracy = claims === null ? 2 : 1 + 2 * claims.factor;
      completeness = 2;
      notes.push(messagePart("offline.note.answers_unknown"));
      suggestions.unshift(messagePart("offline.tip.say_unknown"));
    }
  } else if (basis === "ground_truth" && m.reference !== null) {
    const scored = scoreAgainstReference(m, m.reference, claims);
    accuracy = scored.accuracy;
    completeness = scored.completeness;
    notes.push(...scored.notes);
    suggestions.push(...scored.suggestions);
  } else if (basis === "contexts" && claims !== null) {
    if (claims.adds) {
      accuracy = 1 + 9 * claims.factor;
      notes.push(describeSupport(claims, "offline.note.support_contexts"));
    } else {
      accuracy = 5;
      notes.push(messagePart("offline.note.nothing_checkable"));
    }
    const units = m.support === null ? 0 : supportedUnits(m.support);
    completeness = 1 + 9 * Math.min(1, units / (UNITS_PER_SUB_QUESTION * m.sub_questions));
  } else {
    accuracy = 3;
    completeness = 1 + 9 * Math.min(1, m.added_units / (UNITS_PER_SUB_QUESTION * m.sub_questions));
    notes.push(messagePart("offline.note.unverified"));
    suggestions.push(messagePart("offline.tip.give_evidence"));
  }
  if (m.abstention === "partial") {
    completeness = Math.min(completeness, 7);
    notes.push(messagePart("offline.note.partly_declines"));
  }
  return { accuracy, completeness, notes, suggestions };
}

function scoreClarity(m: OfflineMeasures): {
  clarity: number;
  notes: MessagePart[];
  suggestions: MessagePart[];
} {
  const notes: MessagePart[] = [];
  const suggestions: MessagePart[] = [];
  let clarity = CLARITY_CEILING;
  if (m.repetition > 0) {
    const penalty = Math.min(5, 12 * m.repetition);
    if (penalty >= 0.5) {
      clarity -= penalty;
      notes.push(messagePart("offline.note.repeats", { share: percent(m.repetition) }));
      suggestions.push(messagePart("offline.tip.remove_repeats"));
    }
  }
  if (m.answer_tokens >= 12 && m.question_overlap === 0) {
    clarity -= 3;
    notes.push(messagePart("offline.note.off_question"));
    suggestions.push(messagePart("offline.tip.answer_question"));
  }
  if (m.answer_tokens > 200) {
    clarity -= 1;
    notes.push(messagePart("offline.note.very_long"));
  }
  return { clarity: clamp(clarity, 1, 10), notes, suggestions };
}

export function heuristicBasis(m: OfflineMeasures): HeuristicBasis {
  if (m.reference !== null) return "ground_truth";
  return m.groundedness !== null ? "contexts" : "none";
}

function analysisOf(m: OfflineMeasures): CodedMessage {
  const signals: MessagePart[] = [
    messagePart("offline.signal.abstention", {
      level: messagePart(`offline.abstention.${m.abstention}`),
    }),
  ];
  const signal = (code: MessageCode, params: MessageParams) =>
    signals.push(messagePart(code, params));
  if (m.groundedness?.score != null)
    signal("offline.signal.groundedness", { value: round(m.groundedness.score, 2) });
  const s = m.support;
  if (s !== null) {
    if (s.added_tokens > 0)
      signal("offline.signal.supported_words", {
        supported: s.supported_added_tokens,
        total: s.added_tokens,
      });
    if (s.numbers > 0)
      signal("offline.signal.supported_numbers", {
        supported: s.supported_numbers,
        total: s.numbers,
      });
  }
  if (m.exact_match !== null) signal("offline.signal.exact_match", { value: m.exact_match });
  if (m.f1 !== null) signal("offline.signal.f1", { value: round(m.f1.f1, 2) });
  if (m.rouge_l !== null)
    signal("offline.signal.rouge_l", { value: round(m.rouge_l.f_measure, 2) });
  if (m.ground_truth_coverage !== null)
    signal("offline.signal.ground_truth_coverage", { value: round(m.ground_truth_coverage, 2) });
  if (m.ground_truth_in_contexts !== null)
    signal("offline.signal.ground_truth_in_contexts", {
      value: round(m.ground_truth_in_contexts, 2),
    });
  signal("offline.signal.sub_questions", { value: m.sub_questions });
  if (m.repetition > 0) signal("offline.signal.repetition", { value: round(m.repetition, 2) });
  return codedMessage("clauses", { clauses: signals });
}

/**
 * The reason and suggestion as codes, and their English words in the fields seed 002 names (kept
 * for API users and stored rows), worded from the same codes so the two cannot disagree.
 */
function reasonAndSuggestion(
  notes: MessagePart[],
  suggestions: MessagePart[],
): Pick<HeuristicRubric, "reason" | "suggestion" | "reason_message" | "suggestion_message"> {
  const reason = codedMessage("offline.reason", { notes });
  const suggestion =
    suggestions.length > 0
      ? codedMessage("sentences", { sentences: suggestions })
      : codedMessage("offline.tip.none");
  return {
    reason: reason.message,
    suggestion: suggestion.message,
    reason_message: reason,
    suggestion_message: suggestion,
  };
}

/** Seed 002's three scores from the offline measures; deterministic, no LLM. */
export function heuristicRubric(
  m: OfflineMeasures,
  options: HeuristicRubricOptions = {},
): HeuristicRubric {
  const weights = options.weights ?? DEFAULT_JUDGES_CONFIG.rubric.weights;
  const passMin = options.passMinAccuracy ?? DEFAULT_JUDGES_CONFIG.rubric.pass_min_accuracy;
  const basis = heuristicBasis(m);
  const analysisMessage = analysisOf(m);
  const analysis = analysisMessage.message;
  if (m.empty) {
    const metrics = { accuracy: 1, completeness: 1, clarity: 1, weighted_score: 1 };
    return {
      metrics,
      analysis,
      analysis_message: analysisMessage,
      ...reasonAndSuggestion(
        [messagePart("offline.note.empty")],
        [messagePart("offline.tip.answer_or_decline")],
      ),
      is_passing: 1 >= passMin,
      heuristic: true,
      basis,
    };
  }
  const scored = m.abstention === "full" ? scoreAbstention(m) : scoreClaims(m, basis);
  const clear = scoreClarity(m);
  const scores = {
    accuracy: round(clamp(scored.accuracy, 1, 10), 1),
    completeness: round(clamp(scored.completeness, 1, 10), 1),
    clarity: round(clear.clarity, 1),
  };
  const metrics = { ...scores, weighted_score: weightedScore(scores, weights) };
  return {
    metrics,
    analysis,
    analysis_message: analysisMessage,
    ...reasonAndSuggestion(
      [...scored.notes, ...clear.notes],
      [...scored.suggestions, ...clear.suggestions],
    ),
    // With a reference, passing also needs the answer to state it: accuracy alone would pass an
    // answer that says nothing false and never answers (a partial answer, a vague one).
    is_passing:
      scores.accuracy >= passMin && (m.reference === null || m.reference.verdict === "correct"),
    heuristic: true,
    basis,
  };
}
