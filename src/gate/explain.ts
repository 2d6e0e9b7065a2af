// A check's outcome in one plain sentence, from the check's own detail fields: what a person reads
// beside a verdict (the guardrail's reasons, reports) instead of the detail object itself.

import type { EvaluationCheck } from "./schema.js";

export type ExplainLanguage = "en" | "zh";

/** Ids and sentences listed in an explanation: the first few, then "and N more". */
const LISTED = 3;

const num = (value: unknown): number => (typeof value === "number" ? value : 0);
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

function listed(items: readonly string[], lang: ExplainLanguage): string {
  const shown = items.slice(0, LISTED).join(lang === "zh" ? "、" : ", ");
  const more = items.length - LISTED;
  if (more <= 0) return shown;
  return lang === "zh" ? `${shown} 等 ${items.length} 项` : `${shown} and ${more} more`;
}

/** Figures the numeric check could not find, as written in the answer. */
function missingFigures(detail: Record<string, unknown>): string[] {
  const missing = Array.isArray(detail.missing) ? detail.missing : [];
  return missing.map((m) => String((m as { raw?: unknown }).raw ?? "")).filter(Boolean);
}

type Explainer = (detail: Record<string, unknown>, lang: ExplainLanguage) => string;

/** Why each check did not pass. A check absent here has no failing form of its own. */
const EXPLAIN_FAILURE: Record<string, Explainer> = {
  no_empty_answer: (d, lang) => {
    if (d.reason === "template answer")
      return lang === "zh"
        ? "回答只是模板文字，没有实际内容。"
        : "The answer is template text, not an answer.";
    if (d.reason === "only citation markers")
      return lang === "zh"
        ? "回答只有引用标记，没有文字。"
        : "The answer holds only citation markers.";
    return lang === "zh" ? "回答是空的。" : "The answer is empty.";
  },
  require_citations: (_d, lang) =>
    lang === "zh"
      ? "回答没有引用任何检索到的段落。"
      : "The answer cites none of the retrieved passages.",
  citation_coverage: (d, lang) => {
    const unknown = strings(d.unknown);
    const cited = num(d.cited);
    return lang === "zh"
      ? `引用的 ${cited} 个段落中有 ${unknown.length} 个不在检索结果里：${listed(unknown, lang)}。`
      : `${unknown.length} of ${cited} cited passages are not among the retrieved ones: ${listed(unknown, lang)}.`;
  },
  min_answer_length: (d, lang) =>
    lang === "zh"
      ? `回答只有 ${num(d.chars)} 个字符，至少需要 ${num(d.min_chars)} 个。`
      : `The answer has ${num(d.chars)} characters; at least ${num(d.min_chars)} are needed.`,
  citation_markers: (d, lang) => {
    const unresolved = strings(d.unresolved);
    return lang === "zh"
      ? `${unresolved.length} 个引用标记指向不存在的段落：${listed(unresolved, lang)}。`
      : `${unresolved.length} citation ${unresolved.length === 1 ? "marker points" : "markers point"} to no retrieved passage: ${listed(unresolved, lang)}.`;
  },
  sentence_support: (d, lang) => {
    const judged = num(d.judged);
    const unsupported = judged - num(d.supported);
    const needed = Math.ceil((1 - num(d.max_unsupported_ratio)) * judged - 1e-9);
    return lang === "zh"
      ? `${judged} 句中有 ${unsupported} 句在所引段落中找不到依据（至少需要 ${needed} 句有依据）。`
      : `${unsupported} of ${judged} sentences have no support in the cited passages (needed ${needed} supported).`;
  },
  numeric_consistency: (d, lang) => {
    const figures = missingFigures(d);
    const total = num(d.numbers);
    return lang === "zh"
      ? `${total} 个数字中有 ${figures.length} 个不在所引段落中：${listed(figures, lang)}。`
      : `${figures.length} of ${total} figures are not in the cited passages: ${listed(figures, lang)}.`;
  },
  honest_abstention: (_d, lang) =>
    lang === "zh"
      ? "没有检索到任何证据，回答却很肯定；应当说明无法回答。"
      : "Nothing was retrieved, yet the answer is confident; it should say it cannot answer.",
};

/**
 * One sentence saying why a check did not pass, or undefined when it passed or was skipped.
 * Worded from the check's detail, so it never quotes raw detail objects.
 */
export function explainCheck(
  check: Pick<EvaluationCheck, "name" | "status" | "detail">,
  lang: ExplainLanguage = "en",
): string | undefined {
  if (check.status === "pass" || check.status === "skipped") return undefined;
  const explain = EXPLAIN_FAILURE[check.name];
  if (explain !== undefined) return explain(check.detail, lang);
  return lang === "zh" ? `检查 ${check.name} 未通过。` : `The ${check.name} check did not pass.`;
}
