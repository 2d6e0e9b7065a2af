// Seed 001's issue list (QualityChecker.grade_documents), in English and Chinese. The Chinese
// wording follows the seed; "薄弱点" (its learner-history source) becomes the priority source.

export type QualityIssueCode =
  | "no_documents"
  | "low_priority_coverage"
  | "low_mean_relevance"
  | "single_source"
  | "few_documents"
  | "vague_query";

export interface IssueValues {
  /** Coverage as a percentage, mean relevance to 2 decimals, counts as integers. */
  value: string;
  /** The threshold the value missed. */
  threshold: string;
  source: string;
}

type Message = (v: IssueValues) => string;

export const QUALITY_ISSUE_MESSAGES: Record<QualityIssueCode, { en: Message; zh: Message }> = {
  no_documents: {
    en: () => "No documents retrieved",
    zh: () => "未检索到任何文档",
  },
  low_priority_coverage: {
    en: (v) => `Priority-source (${v.source}) coverage too low (${v.value} < ${v.threshold})`,
    zh: (v) => `优先数据源(${v.source})覆盖率不足(${v.value} < ${v.threshold})`,
  },
  low_mean_relevance: {
    en: (v) => `Mean relevance score too low (${v.value})`,
    zh: (v) => `平均相关性分数过低(${v.value})`,
  },
  single_source: {
    en: (v) => `Single data source (at least ${v.threshold} recommended)`,
    zh: (v) => `数据源单一(建议至少${v.threshold}个)`,
  },
  few_documents: {
    en: (v) => `Too few documents (${v.value}<${v.threshold})`,
    zh: (v) => `文档数量不足(${v.value}<${v.threshold})`,
  },
  // Not in seed 001: `value` is the specificity, `threshold` the focus (see quality-checker.ts).
  vague_query: {
    en: (v) =>
      `Query too vague (specificity ${v.value}, best document ahead of the next by ${v.threshold})`,
    zh: (v) => `查询过于模糊(特异性${v.value}，最佳文档领先第二名${v.threshold})`,
  },
};
