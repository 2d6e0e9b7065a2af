// Seed 001's QueryRewriter: rewrites a low-quality query with one strategy per quality issue, on
// the `rewriter` role's model; without one, expands the query from the top documents.

import type { PromptLanguage } from "../../judges/index.js";
import { renderPrompt } from "../../judges/index.js";
import { type CallRecord, type LlmClient, LlmError } from "../../llm/index.js";
import { contentForm, forEachWord, stripCitationMarkers } from "../../text/index.js";
import type { RetrievalSource, RetrievedHit } from "../types.js";
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

interface Candidate {
  surface: string;
  weight: number;
  count: number;
  first: number;
}

/**
 * The deterministic rewrite: the query plus the content words that best characterise its top
 * documents (weighted by how many of them contain the word and how well each scored), or, when
 * nothing was retrieved, the query's own content words only (fewer terms match more documents).
 */
export function expandQuery(
  query: string,
  hits: readonly RetrievedHit[],
  config: RewriteConfig = DEFAULT_LOOPS_CONFIG.rewrite,
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
  const candidates = new Map<string, Candidate>();
  let order = 0;
  for (const hit of hits.slice(0, config.expansion_documents)) {
    const seen = new Set<string>();
    const weight = 1 + (Number.isFinite(hit.score) ? Math.max(hit.score, 0) : 0);
    forEachWord(stripCitationMarkers(hit.content), (word) => {
      const form = contentForm(word);
      if (form === undefined || queryForms.has(form)) return;
      // Two-letter Latin words are mostly noise (ids, units) in an expansion.
      if (word.length < 3 && word.charCodeAt(0) < 0x80) return;
      let candidate = candidates.get(form);
      if (candidate === undefined) {
        candidate = { surface: word, weight: 0, count: 0, first: order++ };
        candidates.set(form, candidate);
      }
      candidate.count++;
      if (!seen.has(form)) {
        seen.add(form);
        candidate.weight += weight;
      }
    });
  }
  const terms = [...candidates.values()]
    .sort((a, b) => b.weight - a.weight || b.count - a.count || a.first - b.first)
    .slice(0, config.expansion_terms)
    .map((c) => c.surface);
  return terms.length === 0 ? query : cut(`${query} ${terms.join(" ")}`, config.max_query_chars);
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
    const expansion = (fallback_reason: string): Rewrite => ({
      query: expandQuery(request.query, request.hits, this.#config),
      requested_sources,
      strategies,
      by: "expansion",
      fallback_reason,
    });
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
        return { ...expansion("the rewriter replied with no query"), call: result.call };
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
