// Seed 001's QueryRewriter: rewrites a low-quality query with one strategy per quality issue, on
// the `rewriter` role's model; without one, expands the query from the top documents.

import type { PromptLanguage } from "../../judges/index.js";
import { renderPrompt } from "../../judges/index.js";
import { type CallRecord, type LlmClient, LlmError } from "../../llm/index.js";
import { contentForm, forEachWord, stripCitationMarkers } from "../../text/index.js";
// tokens.ts is pure; the retrieval index would pull the store into the loops.
import { retrievalTokens } from "../retrieval/tokens.js";
import type { QueryStats, RetrievalSource, RetrievedHit } from "../types.js";
import { DEFAULT_LOOPS_CONFIG, type LoopsConfig } from "./config.js";
import type { QualityIssue } from "./quality-checker.js";
import type { QualityIssueCode } from "./quality-checker.messages.js";
import {
  REPLY_PREFIXES,
  REWRITE_PROMPTS,
  REWRITE_STRATEGIES,
  SOURCE_HINTS,
} from "./query-rewriter.prompts.js";

export type RewriteConfig = LoopsConfig["rewrite"];

export interface RewriteRequest {
  query: string;
  issues: readonly QualityIssue[];
  /** The hits graded low, best first: the deterministic rewriter expands from them. */
  hits: readonly RetrievedHit[];
  priority_source: RetrievalSource;
  available_sources: readonly RetrievalSource[];
  language: PromptLanguage;
  signal?: AbortSignal;
  /** The collection's df of retrieval terms (Retriever.termStats), for the expansion's idf. */
  termStats?: (terms: readonly string[], signal?: AbortSignal) => Promise<QueryStats>;
}

export interface Rewrite {
  query: string;
  /**
   * Sources the next question_router must include: the priority source for low coverage, every
   * available source for a single source (seed 001 AC 2's "明确要求…数据源" / "多工具调用").
   */
  requested_sources: RetrievalSource[];
  /** The issue codes whose strategies were applied, one each. */
  strategies: QualityIssueCode[];
  by: "llm" | "expansion";
  model?: string;
  call?: CallRecord;
  /** Why the LLM was not used: no rewriter client, or the error of its call. */
  fallback_reason?: string;
}

export interface QueryRewriterOptions {
  /** The `rewriter` role's client; without it every rewrite is deterministic. */
  client?: LlmClient;
  config?: RewriteConfig;
}

function distinctCodes(issues: readonly QualityIssue[]): QualityIssueCode[] {
  const codes: QualityIssueCode[] = [];
  for (const issue of issues) if (!codes.includes(issue.code)) codes.push(issue.code);
  return codes;
}

/** The sources a rewrite asks the next retrieval to include, in the available order. */
export function requestedSourcesFor(
  codes: readonly QualityIssueCode[],
  priority: RetrievalSource,
  available: readonly RetrievalSource[],
): RetrievalSource[] {
  const wanted = new Set<RetrievalSource>();
  if (codes.includes("single_source")) for (const source of available) wanted.add(source);
  if (codes.includes("low_priority_coverage") && available.includes(priority)) wanted.add(priority);
  return available.filter((source) => wanted.has(source));
}

/** The seed's prompt with the strategy of each issue found, in the query's language. */
export function rewriteMessages(
  query: string,
  issues: readonly QualityIssue[],
  priority: RetrievalSource,
  language: PromptLanguage,
) {
  const strategies = REWRITE_STRATEGIES[language];
  const hint = SOURCE_HINTS[language][priority];
  const codes = distinctCodes(issues);
  return renderPrompt(REWRITE_PROMPTS[language], {
    quality_issues: issues.map((issue) => `- ${issue[language]}`).join("\n"),
    strategies: codes.map((code, i) => `${i + 1}. ${strategies[code](priority, hint)}`).join("\n"),
    original_query: query,
  });
}

const QUOTES = /^["'“”‘’「」『』`]+|["'“”‘’「」『』`]+$/g;

/** The query in a model's reply: the first line of text, without labels, quotes or fences. */
export function cleanRewriteReply(content: string, maxChars: number): string {
  for (const raw of content.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("```")) continue;
    const text = line.replace(REPLY_PREFIXES, "").replace(QUOTES, "").trim();
    if (text !== "") return Array.from(text).slice(0, maxChars).join("");
  }
  return "";
}

/** A word's retrieval terms (usually one): what the index would match it by. */
function termsOf(word: string): string[] {
  return retrievalTokens(word);
}

/** The feedback documents: the top hits' titled text. */
function feedback(hits: readonly RetrievedHit[], config: RewriteConfig): string[] {
  return hits
    .slice(0, config.expansion_documents)
    .map((hit) => `${hit.title ?? ""}\n${stripCitationMarkers(hit.content)}`);
}

// A term worth adding describes the topic: not a number (that presumes the answer), not a
// two-letter Latin word (ids, units).
const LETTER = /\p{L}/u;
function describesTopic(term: string): boolean {
  return LETTER.test(term) && !(term.length < 3 && term.charCodeAt(0) < 0x80);
}

/**
 * The terms expandQuery may add for these hits: the feedback documents', less the query's. The
 * rewriter asks the retriever how common each is (termStats) before choosing.
 */
export function expansionCandidates(
  query: string,
  hits: readonly RetrievedHit[],
  config: RewriteConfig = DEFAULT_LOOPS_CONFIG.rewrite,
): string[] {
  const inQuery = new Set(termsOf(query));
  const seen = new Set<string>();
  for (const text of feedback(hits, config)) {
    for (const term of termsOf(text)) {
      if (!inQuery.has(term) && describesTopic(term)) seen.add(term);
    }
  }
  return [...seen];
}

/** Lucene's idf, as BM25 scores it (bm25.ts). */
function idf(chunks: number, df: number): number {
  return Math.log(1 + (chunks - df + 0.5) / (df + 0.5));
}

/**
 * The deterministic rewrite, pseudo-relevance feedback (a relevance model, as RM3): the query's
 * terms the collection contains (a missing longer Latin word replaced by the form the hits use),
 * plus the `expansion_terms` terms that best characterise the top `expansion_documents` hits,
 * weighted by Σ (the hit's share of the kept query) × occurrences × idf. With `stats` (the
 * collection's df of the candidates and the query's terms, from Retriever.termStats) idf is the
 * collection's; without, it is taken over the documents among the hits. When nothing was
 * retrieved, the query's own content words only (fewer terms match more documents).
 */
export function expandQuery(
  query: string,
  hits: readonly RetrievedHit[],
  config: RewriteConfig = DEFAULT_LOOPS_CONFIG.rewrite,
  stats?: QueryStats,
): string {
  const queryForms = new Set<string>();
  const queryWords: string[] = [];
  forEachWord(query, (word) => {
    const form = contentForm(word);
    if (form === undefined) return;
    if (!queryForms.has(form)) queryWords.push(word);
    queryForms.add(form);
  });
  if (hits.length === 0) {
    const reduced = queryWords.join(" ");
    return reduced === "" ? query : cut(reduced, config.max_query_chars);
  }
  const df = new Map(stats?.terms.map((t) => [t.term, t.chunks]));
  // With hits, the query's words are its retrieval terms' words: numbers stay ("2016").
  const searchWords: string[] = [];
  const searchTerms = new Set<string>();
  const allWords: string[] = [];
  forEachWord(query, (word) => allWords.push(word));
  for (const word of allWords) {
    const fresh = termsOf(word).filter((term) => !searchTerms.has(term));
    if (fresh.length === 0) continue;
    for (const term of fresh) searchTerms.add(term);
    searchWords.push(word);
  }
  const hitTerms = new Map<string, Set<string>>();
  for (const hit of hits) {
    const terms = hitTerms.get(hit.document_id) ?? new Set<string>();
    for (const term of termsOf(`${hit.title ?? ""}\n${hit.content}`)) terms.add(term);
    hitTerms.set(hit.document_id, terms);
  }
  const documents = [...hitTerms.values()];
  const found = (term: string) =>
    stats && df.has(term) ? (df.get(term) ?? 0) > 0 : documents.some((d) => d.has(term));
  // A word the collection lacks can only lower coverage. A longer Latin word becomes the form the
  // hits use (destroy → destroyed, as the extractive generator matches them: only plurals are
  // folded in the index); any other goes, unless nothing else is left.
  const hitVocabulary = new Set(documents.flatMap((d) => [...d]));
  const variantOf = (term: string): string | undefined => {
    if (term.length < 4 || term.charCodeAt(0) >= 0x80) return undefined;
    for (const candidate of hitVocabulary) {
      if (candidate.length < 4 || !found(candidate)) continue;
      if (candidate.startsWith(term) || term.startsWith(candidate)) return candidate;
    }
    return undefined;
  };
  const kept: string[] = [];
  for (const word of searchWords) {
    const terms = termsOf(word);
    if (terms.some(found)) kept.push(word);
    else {
      const variant = terms.map(variantOf).find((v) => v !== undefined);
      if (variant !== undefined && !kept.includes(variant)) kept.push(variant);
    }
  }
  const base = kept.length > 0 ? kept : searchWords;

  const baseTerms = [...new Set(base.flatMap(termsOf))];
  const inQuery = new Set([...termsOf(query), ...baseTerms]);
  const idfOf = (term: string) => {
    const known = stats ? df.get(term) : undefined;
    if (stats && known !== undefined) return idf(stats.chunks, known);
    return idf(documents.length, documents.filter((d) => d.has(term)).length);
  };
  // Relevance-model weights (P(t|R) ∝ Σ_d P(t|d) P(q|d)): a term counts each time a feedback
  // document uses it, times how much of the kept query that document matches (idf-weighted), so
  // a hit that matched the query only through a word now dropped or repaired pulls less.
  const baseWeight = baseTerms.reduce((sum, term) => sum + idfOf(term), 0);
  const tf = new Map<string, { surface: string; count: number; first: number }>();
  let order = 0;
  for (const text of feedback(hits, config)) {
    // Words first: they are read twice (the document's match weight, then its terms).
    const words: string[] = [];
    forEachWord(text, (word) => words.push(word));
    const has = new Set(words.flatMap(termsOf));
    const matched = baseTerms.reduce((sum, term) => sum + (has.has(term) ? idfOf(term) : 0), 0);
    const weight = baseWeight > 0 ? matched / baseWeight : 1;
    for (const word of words) {
      for (const term of termsOf(word)) {
        if (inQuery.has(term) || !describesTopic(term)) continue;
        const entry = tf.get(term);
        if (entry) entry.count += weight;
        else tf.set(term, { surface: word, count: weight, first: order++ });
      }
    }
  }
  const terms = [...tf]
    .map(([term, entry]) => ({ ...entry, weight: entry.count * idfOf(term) }))
    .sort((a, b) => b.weight - a.weight || a.first - b.first)
    .slice(0, config.expansion_terms)
    .map((entry) => entry.surface);
  if (terms.length === 0) return base.length === 0 ? query : base.join(" ");
  return cut([...base, ...terms].join(" "), config.max_query_chars);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : Array.from(text).slice(0, max).join("");
}

/** Seed 001's QueryRewriter. */
export class QueryRewriter {
  readonly #client: LlmClient | undefined;
  readonly #config: RewriteConfig;

  constructor(options: QueryRewriterOptions = {}) {
    this.#client = options.client;
    this.#config = options.config ?? DEFAULT_LOOPS_CONFIG.rewrite;
  }

  async rewrite(request: RewriteRequest): Promise<Rewrite> {
    const strategies = distinctCodes(request.issues);
    const requested_sources = requestedSourcesFor(
      strategies,
      request.priority_source,
      request.available_sources,
    );
    const expansion = async (fallback_reason: string): Promise<Rewrite> => {
      let stats: QueryStats | undefined;
      if (request.termStats && request.hits.length > 0) {
        const terms = [
          ...new Set([
            ...retrievalTokens(request.query),
            ...expansionCandidates(request.query, request.hits, this.#config),
          ]),
        ];
        stats = await request.termStats(terms, request.signal);
      }
      return {
        query: expandQuery(request.query, request.hits, this.#config, stats),
        requested_sources,
        strategies,
        by: "expansion",
        fallback_reason,
      };
    };
    const client = this.#client;
    if (client === undefined) return expansion("no rewriter model configured");
    try {
      const result = await client.chat({
        messages: rewriteMessages(
          request.query,
          request.issues,
          request.priority_source,
          request.language,
        ),
        temperature: this.#config.temperature,
        signal: request.signal,
      });
      const query = cleanRewriteReply(result.content, this.#config.max_query_chars);
      if (query === "") {
        return { ...(await expansion("the rewriter replied with no query")), call: result.call };
      }
      return {
        query,
        requested_sources,
        strategies,
        by: "llm",
        model: client.model,
        call: result.call,
      };
    } catch (error) {
      // The budget or the caller aborted: let the loop take its timeout exit.
      if (request.signal?.aborted || !LlmError.isInstance(error)) throw error;
      return expansion(`${error.name}: ${error.message}`);
    }
  }
}
