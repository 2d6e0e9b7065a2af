import type { PromptLanguage } from "../../judges/index.js";

// Suggestions the offline review derives from the evidence gate's checks, written like the review
// judge's: each names what is at fault and what to change (seed 000: "具有可操作性").

type Detail = Record<string, unknown>;

function list(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(", ") : "";
}

export const OFFLINE_SUGGESTIONS: Record<
  PromptLanguage,
  {
    no_empty_answer: (d: Detail) => string;
    require_citations: () => string;
    citation_coverage: (d: Detail) => string;
    min_answer_length: (d: Detail) => string;
    citation_markers: (d: Detail) => string;
    unsupported_sentence: (sentence: string, missing: string) => string;
    missing_number: (raw: string, sentence: string) => string;
    honest_abstention: () => string;
  }
> = {
  en: {
    no_empty_answer: (d) =>
      `The answer is unusable (${String(d.reason)}); answer the question from the retrieved chunks.`,
    require_citations: () =>
      "No conclusion cites a source; add the chunk id in square brackets after each claim, e.g. [n1].",
    citation_coverage: (d) =>
      `The citations ${list(d.unknown)} name chunks that were not retrieved; cite only retrieved chunks.`,
    min_answer_length: (d) =>
      `The answer is only ${String(d.chars)} characters long; state the conclusion and its supporting points in full.`,
    citation_markers: (d) =>
      `The markers ${list(d.unresolved)} designate no retrieved chunk; replace them with the ids of the chunks that state the claims.`,
    unsupported_sentence: (sentence, missing) =>
      `Sentence "${sentence}" is not supported by its cited chunks (missing: ${missing}); remove it or cite the chunk that states it.`,
    missing_number: (raw, sentence) =>
      `The number "${raw}" in "${sentence}" does not appear in its cited chunks; correct it or cite the chunk that states it.`,
    honest_abstention: () =>
      "Nothing was retrieved, yet the answer is confident; say that the sources do not contain this information.",
  },
  zh: {
    no_empty_answer: (d) => `回答不可用（${String(d.reason)}），请根据检索内容回答问题。`,
    require_citations: () => "没有任何结论标注来源，请在每个结论后用方括号标注片段编号，如 [n1]。",
    citation_coverage: (d) => `引用 ${list(d.unknown)} 指向未检索到的片段，请只引用检索到的片段。`,
    min_answer_length: (d) => `回答只有 ${String(d.chars)} 个字符，请完整给出结论和依据。`,
    citation_markers: (d) =>
      `标注 ${list(d.unresolved)} 没有对应任何检索片段，请改为陈述该结论的片段编号。`,
    unsupported_sentence: (sentence, missing) =>
      `句子"${sentence}"没有得到所引片段的支持（缺少：${missing}），请删除或引用陈述它的片段。`,
    missing_number: (raw, sentence) =>
      `"${sentence}"中的数字"${raw}"没有出现在所引片段中，请更正或引用陈述它的片段。`,
    honest_abstention: () => "没有检索到任何内容，但回答语气肯定；请说明资料中没有该信息。",
  },
};
