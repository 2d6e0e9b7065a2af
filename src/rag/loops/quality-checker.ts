// Seed 001 (Story 12.9) QualityChecker: four weighted dimensions graded high / medium / low.

import type { RetrievalSource, RetrievedHit } from "../types.js";
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
  /** Mean of hit.score. */
  mean_relevance: number;
  /** min(distinct sources / diversity_sources, 1). */
  source_diversity: number;
  /** min(documents / full_document_count, 1). */
  document_count_score: number;
  documents: number;
  sources: RetrievalSource[];
}

export interface QualityReport {
  quality_grade: QualityGrade;
  quality_score: number;
  quality_issues: QualityIssue[];
  dimensions: QualityDimensions;
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
 * Grades a retrieval as seed 001 does. A hit counts for coverage when the priority source found
 * it (hit.sources), not only when that source ranked it first; diversity counts every source that
 * found any hit. Weights are normalized to sum to 1.
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

  /** Seed 001's grade_documents(documents); `priority` overrides the configured source. */
  gradeDocuments(
    documents: readonly RetrievedHit[],
    priority: RetrievalSource = this.#priority,
  ): QualityReport {
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
        },
      };
    }
    const { issues: limits, diversity_sources, full_document_count } = this.#config;
    const n = documents.length;
    let covered = 0;
    let relevance = 0;
    const sources = new Set<RetrievalSource>();
    for (const doc of documents) {
      if (doc.source === priority || doc.sources.includes(priority)) covered++;
      relevance += Number.isFinite(doc.score) ? doc.score : 0;
      sources.add(doc.source);
      for (const source of doc.sources) sources.add(source);
    }
    const coverage = covered / n;
    const meanRelevance = relevance / n;
    const diversity = Math.min(sources.size / diversity_sources, 1);
    const countScore = Math.min(n / full_document_count, 1);
    const w = this.#weights;
    const score =
      coverage * w.priority_coverage +
      meanRelevance * w.mean_relevance +
      diversity * w.source_diversity +
      countScore * w.document_count;

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
