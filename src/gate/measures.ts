// Seed 004 §5 "utils": measurements the checks build on. Nothing here decides pass or fail.

import { LRUCache } from "lru-cache";
import { findCitationMarkers, isAscii, type MarkerSpan } from "../text/index.js";
import { compilePatternList, type PatternMatcher, type PatternMode } from "./patterns.js";
import type { Citation, RetrievalHit } from "./schema.js";

/** The distinct node_ids of citations or hits. */
export function extractNodeIds(items: readonly { node_id: string }[]): Set<string> {
  const ids = new Set<string>();
  for (const item of items) ids.add(item.node_id);
  return ids;
}

/**
 * Share of distinct cited node_ids that are among the hits (seed 004: citations ⊆ hits), in [0,1].
 * 0 when nothing is cited, so an uncited answer never looks fully covered.
 */
export function computeCitationCoverage(
  citations: readonly Citation[],
  hits: readonly RetrievalHit[],
): number {
  const cited = extractNodeIds(citations);
  if (cited.size === 0) return 0;
  const known = extractNodeIds(hits);
  let present = 0;
  for (const id of cited) if (known.has(id)) present++;
  return present / cited.size;
}

/** One reference inside an inline marker: "[n1, n2]" yields two. */
export interface CitationMarker {
  ref: string;
  /** The whole bracketed marker it came from. */
  raw: string;
  start: number;
  end: number;
}

/** Markers of one span as CitationMarkers. */
export function markersOfSpan(span: MarkerSpan): CitationMarker[] {
  return span.refs.map((ref) => ({ ref, raw: span.raw, start: span.start, end: span.end }));
}

/** Inline citation markers of an answer — [n1], [1], [n1, n2], [1][2], 【1】 — one per reference. */
export function parseCitationMarkers(answer: string): CitationMarker[] {
  return findCitationMarkers(answer).flatMap(markersOfSpan);
}

export interface MarkerResolution {
  /** For each resolved reference, the 0-based indexes of the hits it designates. */
  hitsByRef: Map<string, number[]>;
  /** Distinct references that designate no hit, in order of first appearance. */
  unresolved: string[];
}

const INTEGER = /^\d+$/;
const INTEGER_RANGE = /^(\d+)[-–](\d+)$/;
// A range wider than this is more likely an identifier than a citation of that many hits.
const MAX_RANGE = 50;

/** Index of the first hit whose node_id is `id`, or -1. */
function findNode(hits: readonly RetrievalHit[], id: string): number {
  for (let i = 0; i < hits.length; i++) if ((hits[i] as RetrievalHit).node_id === id) return i;
  return -1;
}

/** The hits one reference designates (0-based indexes), or undefined. */
export function resolveMarkerRef(ref: string, hits: readonly RetrievalHit[]): number[] | undefined {
  const exact = findNode(hits, ref);
  if (exact >= 0) return [exact];
  const folded = isAscii(ref) ? ref : ref.normalize("NFKC");
  if (folded !== ref) {
    const exactFolded = findNode(hits, folded);
    if (exactFolded >= 0) return [exactFolded];
  }
  if (INTEGER.test(folded)) {
    const position = Number(folded);
    return position >= 1 && position <= hits.length ? [position - 1] : undefined;
  }
  const range = INTEGER_RANGE.exec(folded);
  if (range !== null) {
    const [from, to] = [Number(range[1]), Number(range[2])];
    if (from < 1 || to > hits.length || from > to || to - from >= MAX_RANGE) return undefined;
    return Array.from({ length: to - from + 1 }, (_, k) => from - 1 + k);
  }
  return undefined;
}

/**
 * Resolves each marker reference: an exact node_id first, else a 1-based position in
 * retrieval_hits when the reference is an integer ("3") or an integer range ("1-3"). "n1" is not
 * an integer: it resolves only to a hit whose node_id is "n1".
 */
export function resolveMarkers(
  markers: readonly (CitationMarker | string)[],
  hits: readonly RetrievalHit[],
): MarkerResolution {
  const hitsByRef = new Map<string, number[]>();
  const unresolved: string[] = [];
  for (const marker of markers) {
    const ref = typeof marker === "string" ? marker : marker.ref;
    if (hitsByRef.has(ref) || unresolved.includes(ref)) continue;
    const resolved = resolveMarkerRef(ref, hits);
    if (resolved === undefined) unresolved.push(ref);
    else hitsByRef.set(ref, resolved);
  }
  return { hitsByRef, unresolved };
}

/** Anything that can say whether it holds a token: a Set, or an index over several hits. */
export interface TokenLookup {
  has(token: string): boolean;
}

/** Share of the sentence's content tokens found in the evidence, in [0,1]; 0 for no tokens. */
export function sentenceSupport(sentenceTokens: readonly string[], evidence: TokenLookup): number {
  if (sentenceTokens.length === 0) return 0;
  let found = 0;
  for (const token of sentenceTokens) if (evidence.has(token)) found++;
  return found / sentenceTokens.length;
}

/**
 * Whether sentenceSupport(sentenceTokens, evidence) >= minShare, asking the evidence only until
 * the answer is known: most sentences of a sound answer are settled halfway.
 */
export function supportReaches(
  sentenceTokens: readonly string[],
  evidence: TokenLookup,
  minShare: number,
): boolean {
  const n = sentenceTokens.length;
  if (n === 0) return minShare <= 0;
  const need = tokensNeeded(n, minShare);
  let found = 0;
  for (let i = 0; i < n; i++) {
    if (evidence.has(sentenceTokens[i] as string)) found++;
    if (found >= need) return true;
    if (found + n - 1 - i < need) return false;
  }
  return found >= need;
}

/**
 * The fewest of n tokens whose share found / n reaches minShare (n + 1 when no count does). The
 * share grows with the count, so comparing counts with it is comparing shares, exactly as the
 * division would (0.7 * 10 is not 7 in floating point; 7 / 10 >= 0.7 is what counts).
 */
function tokensNeeded(n: number, minShare: number): number {
  let need = Math.min(n + 1, Math.max(0, Math.ceil(minShare * n)));
  while (need > 0 && (need - 1) / n >= minShare) need--;
  while (need <= n && need / n < minShare) need++;
  return need;
}

/** The content tokens of a sentence that the evidence lacks, distinct, in order. */
export function missingTokens(sentenceTokens: readonly string[], evidence: TokenLookup): string[] {
  const missing = new Set<string>();
  for (const token of sentenceTokens) if (!evidence.has(token)) missing.add(token);
  return [...missing];
}

// Compiling the default lists costs 1-3 ms, matching with them microseconds: matchers are kept
// by their patterns, the least recently used of 512 dropped (request-supplied lists are many).
const compiled = new LRUCache<string, PatternMatcher>({ max: 512 });
// Resolved configs are frozen and shared, so the same pattern array comes back on every call:
// looking it up by identity avoids joining the patterns into a key each time.
const compiledByList = new WeakMap<
  readonly string[],
  Partial<Record<PatternMode, PatternMatcher>>
>();

/**
 * One case-insensitive matcher for a pattern list, compiled once per distinct list, under the
 * linear-time engine of patterns.ts (the patterns may come from a request).
 */
export function patternRegex(
  patterns: readonly string[],
  mode: PatternMode = "anywhere",
): PatternMatcher {
  let byMode = compiledByList.get(patterns);
  if (byMode === undefined) {
    byMode = {};
    compiledByList.set(patterns, byMode);
  }
  let matcher = byMode[mode];
  if (matcher === undefined) {
    matcher = compilePatterns(patterns, mode);
    byMode[mode] = matcher;
  }
  return matcher;
}

function compilePatterns(patterns: readonly string[], mode: PatternMode): PatternMatcher {
  const key = `${mode}\u0000${patterns.join("\u0000")}`;
  let matcher = compiled.get(key);
  if (matcher === undefined) {
    matcher = compilePatternList(patterns, mode);
    compiled.set(key, matcher);
  }
  return matcher;
}

/** Whether any of `patterns` (case-insensitive regexes) occurs in the text. */
export function matchesAnyPattern(text: string, patterns: readonly string[]): boolean {
  return patterns.length > 0 && patternRegex(patterns).test(text);
}

/** Whether one of `patterns` matches the whole text. */
export function matchesWholly(text: string, patterns: readonly string[]): boolean {
  return patterns.length > 0 && patternRegex(patterns, "whole").test(text);
}

const CURLY_APOSTROPHE = /[\u2018\u2019\u02bc]/g;

/** Curly apostrophes made straight: models write "don\u2019t" as often as "don't". */
export function straightenApostrophes(text: string): string {
  // ASCII text has none, and the native ASCII test is far cheaper than a replace's scan.
  return isAscii(text) ? text : text.replace(CURLY_APOSTROPHE, "'");
}

/** Whether the answer declines to answer, judged by `patterns` (config abstention_patterns). */
export function isAbstention(answer: string, patterns: readonly string[]): boolean {
  return matchesAnyPattern(straightenApostrophes(answer), patterns);
}

/**
 * For each of several texts (sentences, say), whether it declines to answer. One scan of the
 * texts joined by line breaks settles the usual case, where none does.
 */
export function abstainingTexts(texts: readonly string[], patterns: readonly string[]): boolean[] {
  return abstainingLines(texts, texts.join("\n"), patterns);
}

/** abstainingTexts, given the texts already joined by line breaks (`lines`). */
export function abstainingLines(
  texts: readonly string[],
  lines: string,
  patterns: readonly string[],
): boolean[] {
  if (patterns.length === 0 || !patternRegex(patterns, "lines").test(straightenApostrophes(lines)))
    return texts.map(() => false);
  return texts.map((text) => isAbstention(text, patterns));
}
