// The measurements several checks share — sentences, markers, evidence tokens and numbers —
// computed at most once per input, and lazily, so a check that is disabled or skipped costs
// nothing.

import {
  codePointLength,
  containsContentToken,
  contentTokens,
  contentTokensIn,
  evidenceDigitValues,
  evidenceWordValues,
  extractNumbers,
  isAscii,
  type MarkerSpan,
  type NumberMention,
  normalizeText,
  type Sentence,
  splitSentences,
  stripCitationMarkers,
} from "../text/index.js";
import {
  abstainingLines,
  type CitationMarker,
  type MarkerResolution,
  resolveMarkers,
  type TokenLookup,
} from "./measures.js";
import type { EvaluatorInput, RetrievalHit } from "./schema.js";

export interface AnalysedSentence {
  /** As written, markers included. */
  text: string;
  /** Without its citation markers. */
  plain: string;
  /** References of its markers. */
  refs: string[];
  /** Hits its resolved markers designate; undefined when none resolve (then: all hits). */
  citedHits: readonly number[] | undefined;
}

/** A sentence with the measurements filled in on first use. */
interface SentenceState extends AnalysedSentence {
  /** Where `plain` is in the analysis' `lines`. */
  from: number;
  to: number;
  tokens: string[] | undefined;
  numbers: NumberMention[] | undefined;
}

/** Evidence that answers the two questions the checks ask of hits. */
export interface Evidence extends TokenLookup {
  /** Whether the evidence contains the content token (see containsContentToken). */
  has(token: string): boolean;
  /** Whether the evidence states the number or date (see statesNumberAsWritten). */
  states(mention: NumberMention): boolean;
}

/**
 * One hit's evidence. Nothing is tokenized up front: each question ("does this hit contain the
 * token X?", "does it state the number Y?") is answered by a native substring search, which is
 * several times cheaper than tokenizing every hit in full.
 */
class HitEvidence implements Evidence {
  private ascii: boolean | undefined;
  private folded: string | undefined;
  private digitValues: Set<string> | undefined;
  private wordValues: Set<string> | undefined;

  constructor(private readonly content: string) {}

  /** The content in NFKC, which both questions start from. */
  private nfkc(): string {
    this.ascii ??= isAscii(this.content);
    return this.ascii ? this.content : this.content.normalize("NFKC");
  }

  has(token: string): boolean {
    // An ASCII hit is searched as written first: lower-casing it keeps every position, so a
    // token found there is in the folded text too, and most are (lower-case words are most of
    // a text). Only a miss pays for folding the hit (foldForSearch), which allocates a copy.
    if (this.folded === undefined) {
      const normalized = this.nfkc();
      if (this.ascii && containsContentToken(normalized, token)) return true;
      this.folded = normalized.toLowerCase();
    }
    return containsContentToken(this.folded, token);
  }

  /** Whether the hit states the number or date, in any spelling. */
  states(mention: NumberMention): boolean {
    this.digitValues ??= evidenceDigitValues(this.nfkc());
    if (this.digitValues.has(mention.value)) return true;
    // Spelled-out numbers are read only when digits did not settle it: most claims copy digits.
    this.wordValues ??= evidenceWordValues(this.nfkc());
    return this.wordValues.has(mention.value);
  }
}

/** Several hits as one body of evidence: a token or number found in any of them. */
class EvidenceView implements Evidence {
  constructor(private readonly hits: readonly HitEvidence[]) {}

  has(token: string): boolean {
    for (const hit of this.hits) if (hit.has(token)) return true;
    return false;
  }

  states(mention: NumberMention): boolean {
    for (const hit of this.hits) if (hit.states(mention)) return true;
    return false;
  }
}

/**
 * The references of a sentence's markers, and the hits they designate (distinct, ascending), or
 * undefined when none resolves. Most sentences carry one marker with one reference: its arrays
 * are shared rather than copied (they are never modified).
 */
function citationsOf(
  markers: readonly MarkerSpan[],
  hitsByRef: ReadonlyMap<string, readonly number[]>,
): { refs: string[]; citedHits: readonly number[] | undefined } {
  const only = markers.length === 1 ? (markers[0] as MarkerSpan) : undefined;
  if (only !== undefined && only.refs.length === 1) {
    return { refs: only.refs, citedHits: hitsByRef.get(only.refs[0] as string) };
  }
  const refs: string[] = [];
  let cited: number[] | undefined;
  for (const marker of markers) {
    for (const ref of marker.refs) {
      refs.push(ref);
      for (const hit of hitsByRef.get(ref) ?? []) {
        cited ??= [];
        if (!cited.includes(hit)) cited.push(hit);
      }
    }
  }
  return { refs, citedHits: cited?.sort((a, b) => a - b) };
}

// Fields are filled on first use and nothing is allocated that a check may not need: on a busy
// gate, allocation is a large share of the cost.
export class AnswerAnalysis {
  readonly answer: string;
  readonly hits: readonly RetrievalHit[];
  private proseText: string | undefined;
  private proseLength: number | undefined;
  private split: Sentence[] | undefined;
  private markerList: CitationMarker[] | undefined;
  private markerResolution: MarkerResolution | undefined;
  private sentenceList: SentenceState[] | undefined;
  /** Every sentence's `plain`, one per line: tokens and numbers are read from it in place. */
  private lines = "";
  private readonly hitEvidence: (HitEvidence | undefined)[];
  private allHits: EvidenceView | undefined;
  private views: Map<string, EvidenceView> | undefined;
  private abstainingPatterns: readonly string[] | undefined;
  private abstainingFlags: boolean[] = [];

  constructor(input: EvaluatorInput) {
    this.answer = input.generation_output.answer;
    this.hits = input.retrieval_hits;
    this.hitEvidence = new Array(this.hits.length);
  }

  /** The answer without its citation markers, normalizeText'ed (seed 004 §5.1): the prose. */
  get prose(): string {
    if (this.proseText === undefined) {
      const spans: MarkerSpan[] = [];
      for (const sentence of this.rawSentences())
        for (const span of sentence.markers) spans.push(span);
      this.proseText = normalizeText(stripCitationMarkers(this.answer, spans));
    }
    return this.proseText;
  }

  /** Length of the prose in code points (a Han character or an emoji counts one). */
  get proseChars(): number {
    this.proseLength ??= codePointLength(this.prose);
    return this.proseLength;
  }

  get markers(): CitationMarker[] {
    if (this.markerList === undefined) {
      const markers: CitationMarker[] = [];
      for (const sentence of this.rawSentences()) {
        for (const span of sentence.markers) {
          for (const ref of span.refs)
            markers.push({ ref, raw: span.raw, start: span.start, end: span.end });
        }
      }
      this.markerList = markers;
    }
    return this.markerList;
  }

  get resolution(): MarkerResolution {
    this.markerResolution ??= resolveMarkers(this.markers, this.hits);
    return this.markerResolution;
  }

  /** Sentences of the answer, in order, each with the hits its markers cite. */
  get sentences(): AnalysedSentence[] {
    if (this.sentenceList === undefined) {
      const { hitsByRef } = this.resolution;
      let from = 0;
      const list = this.rawSentences().map((sentence): SentenceState => {
        const plain = stripCitationMarkers(sentence.text, sentence.markers, sentence.start);
        const { refs, citedHits } = citationsOf(sentence.markers, hitsByRef);
        const state: SentenceState = {
          text: sentence.text,
          plain,
          refs,
          citedHits,
          from,
          to: from + plain.length,
          tokens: undefined,
          numbers: undefined,
        };
        from = state.to + 1;
        return state;
      });
      this.lines = list.map((s) => s.plain).join("\n");
      this.sentenceList = list;
    }
    return this.sentenceList;
  }

  /**
   * Content tokens of a sentence (markers excluded). The first call reads every sentence's, in
   * one pass over `lines`.
   */
  tokensOf(sentence: AnalysedSentence): string[] {
    const state = sentence as SentenceState;
    if (state.tokens === undefined) {
      for (const each of this.sentenceList ?? []) {
        each.tokens = contentTokensIn(this.lines, each.from, each.to);
      }
    }
    // A sentence of another analysis is read on its own.
    state.tokens ??= contentTokens(sentence.plain);
    return state.tokens;
  }

  /** Numbers and dates a sentence states. */
  numbersOf(sentence: AnalysedSentence): NumberMention[] {
    const state = sentence as SentenceState;
    state.numbers ??= extractNumbers(sentence.plain);
    return state.numbers;
  }

  /** For each sentence, whether it declines to answer (by `patterns`). */
  abstainingSentences(patterns: readonly string[]): boolean[] {
    if (this.abstainingPatterns !== patterns) {
      const sentences = this.sentences;
      this.abstainingFlags = abstainingLines(
        sentences.map((s) => s.plain),
        this.lines,
        patterns,
      );
      this.abstainingPatterns = patterns;
    }
    return this.abstainingFlags;
  }

  /** Whether any sentence of the answer declines to answer. */
  abstains(patterns: readonly string[]): boolean {
    return this.abstainingSentences(patterns).includes(true);
  }

  /**
   * The evidence of the given hits (all hits when undefined): `has(token)` for content tokens,
   * `states(mention)` for numbers. Token search treats Han, kana, Hangul and Thai tokens as
   * substrings, because their word segmentation depends on context.
   */
  evidence(hitIndexes: readonly number[] | undefined): Evidence {
    if (hitIndexes === undefined) {
      this.allHits ??= new EvidenceView(this.hits.map((_, i) => this.evidenceOfHit(i)));
      return this.allHits;
    }
    if (hitIndexes.length === 1) return this.evidenceOfHit(hitIndexes[0] as number);
    this.views ??= new Map();
    const key = hitIndexes.join(",");
    let view = this.views.get(key);
    if (view === undefined) {
      view = new EvidenceView(hitIndexes.map((i) => this.evidenceOfHit(i)));
      this.views.set(key, view);
    }
    return view;
  }

  private evidenceOfHit(i: number): HitEvidence {
    let evidence = this.hitEvidence[i];
    if (evidence === undefined) {
      evidence = new HitEvidence(this.hits[i]?.content ?? "");
      this.hitEvidence[i] = evidence;
    }
    return evidence;
  }

  private rawSentences(): Sentence[] {
    this.split ??= splitSentences(this.answer);
    return this.split;
  }
}
