// Seed 001 (Story 12.9) QualityChecker: four weighted dimensions graded high / medium / low.

import type { QueryStats, RetrievalSource, RetrievedHit } from "../types.js";
import { DEFAULT_LOOPS_CONFIG, type QualityConfig } from "./config.js";
import { QUALITY_ISSUE_MESSAGES, type QualityIssueCode } from "./quality-checker.messages.js";

export type QualityGrade = "high" | "medium" | "low";

/** One problem with a retrieval, in both languages; `code` drives the rewrite strategy. */
export interface QualityIssue {
  code: QualityIssueCode;
  en: string;
  zh: string;
}

/** Each dimension's value before weighting, in [0, 1], and what it was computed from. */
export interface QualityDimensions {
  priority_source: RetrievalSource;
  /** Share of hits the priority source found. */
  priority_coverage: number;
  /** Mean of hit.score over the top `relevance_hits` (3: seed 001 AC 1's "Top-3平均分"). */
  mean_relevance: number;
  /** min(distinct sources / diversity_sources, 1). */
  source_diversity: number;
  /** min(documents / full_document_count, 1). */
  document_count_score: number;
  documents: number;
  sources: RetrievalSource[];
  /**
   * Information the query's terms carry about the collection, Σ ln(chunks / chunks containing the
   * term), over what singling out one chunk takes (ln chunks), capped at 1. 1 when the retriever
   * gave no query statistics.
   */
  specificity: number;
  /** How far the best document stands out: 1 − runner-up document's score / best document's. */
  focus: number;
  /** specificity × (specificity + (1 − specificity) × focus): multiplies the weighted score. */
  clarity: number;
}

export interface QualityReport {
  quality_grade: QualityGrade;
  quality_score: number;
  quality_issues: QualityIssue[];
  dimensions: QualityDimensions;
}

/** What the grader knows beyond the hits: the query's term statistics, when the retriever has them. */
export interface GradeContext {
  priority?: RetrievalSource;
  query_stats?: QueryStats;
}

export interface QualityCheckerOptions extends Partial<Omit<QualityConfig, "priority_source">> {
  /** A concrete source; resolve "auto" first (resolvePrioritySource). */
  priority_source?: RetrievalSource;
}

function issue(
  code: QualityIssueCode,
  value = "",
  threshold = "",
  source: RetrievalSource = "vector",
): QualityIssue {
  const values = { value, threshold, source };
  const messages = QUALITY_ISSUE_MESSAGES[code];
  return { code, en: messages.en(values), zh: messages.zh(values) };
}

/** "auto": vector when the run may use it (semantic hits are the best-ranked), else lexical. */
export function resolvePrioritySource(
  setting: QualityConfig["priority_source"],
  available: readonly RetrievalSource[],
): RetrievalSource {
  if (setting !== "auto") return setting;
  return available.includes("vector") || available.length === 0 ? "vector" : "lexical";
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/**
 * Specificity of a query in [0, 1]: the information its terms carry, Σ ln(N / df), against ln N,
 * the information needed to single out one of N chunks (under independence, the query is then
 * expected to match one chunk by chance at most). Terms the collection lacks narrow nothing and
 * are left out; coverage already penalises them. Without statistics, 1: nothing is known.
 */
export function querySpecificity(stats: QueryStats | undefined): number {
  if (stats === undefined) return 1;
  const n = stats.chunks;
  if (n <= 1) return 1;
  let information = 0;
  for (const { chunks } of stats.terms) if (chunks > 0) information += Math.log(n / chunks);
  return Math.min(1, information / Math.log(n));
}

/**
 * Focus in [0, 1]: 1 − (runner-up document's best score / best document's best score). BM25 when
 * every hit has it (it keeps term frequency and length, which the reranker's coverage flattens for
 * a one-term query), else the hit score. One document matched: 1; nothing matched: 0.
 */
export function retrievalFocus(documents: readonly RetrievedHit[]): number {
  const useBm25 = documents.every((doc) => Number.isFinite(doc.scores.bm25));
  const best = new Map<string, number>();
  for (const doc of documents) {
    const value = useBm25 ? (doc.scores.bm25 as number) : doc.score;
    const score = Number.isFinite(value) ? Math.max(0, value) : 0;
    best.set(doc.document_id, Math.max(best.get(doc.document_id) ?? 0, score));
  }
  let first = 0;
  let second = 0;
  for (const score of best.values()) {
    if (score > first) [first, second] = [score, first];
    else if (score > second) second = score;
  }
  if (first <= 0) return 0;
  return 1 - second / first;
}

/**
 * Clarity in [0, 1]: a specific query is clear whatever its runners-up (two documents stating
 * the same fact agree, they do not compete); an unspecific one is discounted by its specificity
 * when one document stands out and by its square when its matches are spread evenly.
 */
export function queryClarity(specificity: number, focus: number): number {
  return specificity * (specificity + (1 - specificity) * focus);
}

/**
 * Grades a retrieval as seed 001 does, times the query's clarity. A hit counts for coverage when
 * the priority source found it (hit.sources), not only when that source ranked it first;
 * diversity counts every source that found any hit. Weights are normalized to sum to 1.
 */
export class QualityChecker {
  readonly #config: QualityConfig;
  readonly #priority: RetrievalSource;
  readonly #weights: QualityConfig["weights"];

  constructor(options: QualityCheckerOptions = {}) {
    const defaults = DEFAULT_LOOPS_CONFIG.quality;
    this.#config = {
      ...defaults,
      ...options,
      priority_source: options.priority_source ?? "vector",
    };
    this.#priority = options.priority_source ?? "vector";
    const w = this.#config.weights;
    const total = w.priority_coverage + w.mean_relevance + w.source_diversity + w.document_count;
    // Weights that already sum to 1 (the seed's) are used as given, so scores match its formula.
    this.#weights =
      Math.abs(total - 1) < 1e-9
        ? { ...w }
        : {
            priority_coverage: w.priority_coverage / total,
            mean_relevance: w.mean_relevance / total,
            source_diversity: w.source_diversity / total,
            document_count: w.document_count / total,
          };
  }

  get prioritySource(): RetrievalSource {
    return this.#priority;
  }

  /**
   * Seed 001's grade_documents(documents); `context.priority` (or a source) overrides the
   * configured source, `context.query_stats` gives the query's specificity.
   */
  gradeDocuments(
    documents: readonly RetrievedHit[],
    context: GradeContext | RetrievalSource = {},
  ): QualityReport {
    const { priority = this.#priority, query_stats } =
      typeof context === "string" ? { priority: context } : context;
    if (documents.length === 0) {
      return {
        quality_grade: "low",
        quality_score: 0,
        quality_issues: [issue("no_documents")],
        dimensions: {
          priority_source: priority,
          priority_coverage: 0,
          mean_relevance: 0,
          source_diversity: 0,
          document_count_score: 0,
          documents: 0,
          sources: [],
          specificity: querySpecificity(query_stats),
          focus: 0,
          clarity: 0,
        },
      };
    }
    const { issues: limits, diversity_sources, full_document_count } = this.#config;
    const n = documents.length;
    let covered = 0;
    let relevance = 0;
    const sources = new Set<RetrievalSource>();
    const top = Math.min(n, this.#config.relevance_hits);
    documents.forEach((doc, i) => {
      if (doc.source === priority || doc.sources.includes(priority)) covered++;
      if (i < top) relevance += Number.isFinite(doc.score) ? doc.score : 0;
      sources.add(doc.source);
      for (const source of doc.sources) sources.add(source);
    });
    const coverage = covered / n;
    const meanRelevance = relevance / top;
    const specificity = querySpecificity(query_stats);
    const focus = retrievalFocus(documents);
    const clarity = queryClarity(specificity, focus);
    const diversity = Math.min(sources.size / diversity_sources, 1);
    const countScore = Math.min(n / full_document_count, 1);
    const w = this.#weights;
    // The seed's dimensions measure the evidence returned; clarity says whether it answers one
    // identifiable question. A one-word query matches fully wherever it occurs, so without
    // clarity the vaguest queries would grade best.
    const score =
      (coverage * w.priority_coverage +
        meanRelevance * w.mean_relevance +
        diversity * w.source_diversity +
        countScore * w.document_count) *
      clarity;

    const issues: QualityIssue[] = [];
    if (coverage < limits.min_priority_coverage) {
      issues.push(
        issue(
          "low_priority_coverage",
          percent(coverage),
          percent(limits.min_priority_coverage),
          priority,
        ),
      );
    }
    if (meanRelevance < limits.min_mean_relevance) {
      issues.push(issue("low_mean_relevance", meanRelevance.toFixed(2)));
    }
    if (sources.size < limits.min_sources) {
      issues.push(issue("single_source", String(sources.size), String(limits.min_sources)));
    }
    if (n < limits.min_documents) {
      issues.push(issue("few_documents", String(n), String(limits.min_documents)));
    }
    if (clarity < 1) {
      issues.push(issue("vague_query", percent(specificity), percent(focus)));
    }
    return {
      quality_grade: this.gradeOf(score),
      quality_score: score,
      quality_issues: issues,
      dimensions: {
        priority_source: priority,
        priority_coverage: coverage,
        mean_relevance: meanRelevance,
        source_diversity: diversity,
        document_count_score: countScore,
        documents: n,
        sources: [...sources].sort(),
        specificity,
        focus,
        clarity,
      },
    };
  }

  /** Seed 001: high >= 0.7, medium >= 0.5, low below (configurable). */
  gradeOf(score: number): QualityGrade {
    const { high, medium } = this.#config.grades;
    if (score >= high) return "high";
    if (score >= medium) return "medium";
    return "low";
  }
}
