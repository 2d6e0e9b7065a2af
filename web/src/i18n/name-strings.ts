// Names of what the server sends as identifiers (a rubric dimension, a judge's kind, a question
// type), English and Chinese; merged into strings.ts. Chart axes and tables show these, never the
// raw field names.
export const nameEn = {
  "dim.accuracy": "accuracy",
  "dim.completeness": "completeness",
  "dim.clarity": "clarity",
  "dim.exact_match": "exact match",
  "dim.f1": "F1",
  "dim.rouge_l": "ROUGE-L",
  "dim.groundedness": "groundedness",
  "dim.score": "score",
  "dim.token_precision": "token precision",
  "dim.passed": "pass rate",
  "judgeKind.rubric": "rubric",
  "judgeKind.offline": "offline",
  "judgeKind.reference": "reference",
  "judgeKind.review": "review",
  "judgeKind.token_precision": "token precision",
  "judgeKind.contains_reference": "contains the reference",
  "judgeKind.pairwise": "pairwise",
  "judgeKind.claims": "claims (RAGChecker)",
  "judgeKind.claims_offline": "claims, offline (approximate)",
  "qtype.FACTUAL": "factual",
  "qtype.INFERENTIAL": "inferential",
  "qtype.USER_DEFINED": "user-defined",
} as const;

export const nameZh: Record<keyof typeof nameEn, string> = {
  "dim.accuracy": "准确性",
  "dim.completeness": "完整性",
  "dim.clarity": "清晰度",
  "dim.exact_match": "精确匹配",
  "dim.f1": "F1",
  "dim.rouge_l": "ROUGE-L",
  "dim.groundedness": "有据性",
  "dim.score": "得分",
  "dim.token_precision": "词元精确率",
  "dim.passed": "通过率",
  "judgeKind.rubric": "评分细则",
  "judgeKind.offline": "离线",
  "judgeKind.reference": "参考答案",
  "judgeKind.review": "审核",
  "judgeKind.token_precision": "词元精确率",
  "judgeKind.contains_reference": "包含参考答案",
  "judgeKind.pairwise": "成对",
  "judgeKind.claims": "断言（RAGChecker）",
  "judgeKind.claims_offline": "断言，离线（近似）",
  "qtype.FACTUAL": "事实型",
  "qtype.INFERENTIAL": "推理型",
  "qtype.USER_DEFINED": "自定义",
};

type NameKey = keyof typeof nameEn;
type Translate = (key: NameKey) => string;

/** The words for an identifier under a prefix, or the identifier itself when it has none. */
function named(prefix: "dim" | "judgeKind" | "qtype", id: string, t: Translate): string {
  const key = `${prefix}.${id}`;
  return Object.hasOwn(nameEn, key) ? t(key as NameKey) : id;
}

export const dimensionName = (id: string, t: Translate) => named("dim", id, t);
export const judgeKindName = (id: string, t: Translate) => named("judgeKind", id, t);
export const questionTypeName = (id: string, t: Translate) => named("qtype", id, t);
