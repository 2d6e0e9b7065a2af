import type { PromptLanguage } from "../../judges/index.js";

// Seed 000's prompts as data. GENERATION_SYSTEM becomes the SystemMessage `run` puts first in
// `messages` (the question is the HumanMessage after it); REVISION_REQUEST is the message that
// carries a failed review back to the generator: the original query, the retrieved content, the
// previous answer (last_answer) and the suggestions, asking to keep what was right.
// Placeholders: {context} {top_k} {max_chars} {question} {answer} {suggestions}.

export const GENERATION_SYSTEM: Record<PromptLanguage, string> = {
  en: `You are the answering assistant of a retrieval-augmented (RAG) system. Answer the user's question using only the retrieved chunks below.

Rules:
- Put the conclusion first, then the supporting points.
- After every claim, cite the chunk it comes from with the chunk's id in square brackets exactly as shown, e.g. [n1] or [n1, n3].
- Copy numbers, names and dates exactly as the chunks state them.
- If the chunks do not contain the answer, or only part of it, say plainly which information is not in the sources. Never guess.

## Retrieved chunks (top {top_k}, each cut to {max_chars} characters; "…" marks a cut)
{context}`,
  zh: `你是检索增强（RAG）系统的回答助手。只根据下面的检索内容回答用户的问题。

规则：
- 先给结论，再给依据。
- 每个结论之后用方括号标注其来源片段的编号，与下面显示的完全一致，例如 [n1] 或 [n1, n3]。
- 数字、名称和日期必须与检索内容中的写法一致。
- 如果检索内容不包含答案或只包含部分答案，明确说明哪些信息资料中没有，不要猜测。

## 检索内容（前 {top_k} 条，每条截断为 {max_chars} 字符，“…”表示已截断）
{context}`,
};

export const REVISION_REQUEST: Record<PromptLanguage, string> = {
  en: `Your previous answer did not pass review. Revise it.

## Original question
{question}

## Retrieved chunks
{context}

## Your previous answer
{answer}

## Reviewer's suggestions
{suggestions}

Revise the answer so that it addresses every suggestion. Keep the parts of the previous answer that are correct and properly cited; change only what the suggestions point at. Cite chunks by their id in square brackets, as before. Reply with the revised answer only.`,
  zh: `你之前的回答没有通过评估，请修改。

## 原始问题
{question}

## 检索内容
{context}

## 之前的回答
{answer}

## 评估建议
{suggestions}

请根据每一条建议修改回答。保留之前回答中正确且标注了来源的部分，只修改建议指出的问题。继续用方括号标注来源片段的编号。只输出修改后的回答。`,
};

/** Shown in place of the suggestions when a failed review gave none (e.g. a judge_error). */
export const NO_SUGGESTIONS: Record<PromptLanguage, string> = {
  en: "(The reviewer gave no specific suggestions: check that every claim is supported by, and cites, the retrieved chunks.)",
  zh: "（评估没有给出具体建议：请检查每个结论都有检索内容支撑并标注了来源。）",
};

export const NO_CONTEXT: Record<PromptLanguage, string> = {
  en: "(nothing was retrieved)",
  zh: "（未检索到任何内容）",
};

/** The extractive generator's answer when no sentence of the hits bears on the question. */
export const EXTRACTIVE_ABSTENTION: Record<PromptLanguage, string> = {
  en: "I could not find information about this in the retrieved documents.",
  zh: "检索到的资料中没有找到相关信息。",
};

/** What ask shows with a verdict the gate did not fully pass. */
export const GATE_NOTICES: Record<
  PromptLanguage,
  { warning: (checks: string) => string; refusal: (checks: string) => string }
> = {
  en: {
    warning: (checks) =>
      `Parts of this answer could not be fully verified against the retrieved sources (${checks}).`,
    refusal: (checks) =>
      `No answer is shown: it did not pass the evidence checks against the retrieved sources (${checks}).`,
  },
  zh: {
    warning: (checks) => `该回答的部分内容无法完全由检索到的资料核实（${checks}）。`,
    refusal: (checks) => `不显示回答：它没有通过基于检索资料的证据检查（${checks}）。`,
  },
};
