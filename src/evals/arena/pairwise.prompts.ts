import type { PromptLanguage, PromptTemplate } from "../../judges/index.js";

// The arena's pairwise judge (issue 14 §2; seed 002 section 3.2, Auto-Arena): two answers to one
// question, side by side, judged on what seed 002's rubric weighs (accuracy first, then
// completeness, then clarity), never on length or position. Placeholders: {question}
// {reference} {context} {answer_a} {answer_b}.

export const PAIRWISE_PROMPTS: Record<
  PromptLanguage,
  PromptTemplate & { noReference: string; noContext: string }
> = {
  en: {
    system:
      "You are an impartial judge comparing two answers to the same question. Judge accuracy " +
      "first (facts consistent with the reference and the retrieved context; no fabrication), " +
      "then completeness, then clarity. Do not let the order of the answers, their length or " +
      "their style sway you. Reply with JSON only.",
    user: `## Question
{question}

## Reference answer
{reference}

## Retrieved context
{context}

## Answer A
{answer_a}

## Answer B
{answer_b}

## Task
Compare the answers. First explain briefly which facts each gets right or wrong, then decide.
Say "tie" when neither is better.

## Output format (JSON only)
{"reasoning": "...", "verdict": "A" | "B" | "tie"}`,
    noReference: "(none given)",
    noContext: "(none given)",
  },
  zh: {
    system:
      "你是一名公正的评审，比较同一个问题的两个回答。先看准确性（与参考答案和检索上下文一致，" +
      "没有编造），再看完整性，最后看表达清晰度。不要受回答的先后顺序、长度或文风影响。只输出 JSON。",
    user: `## 问题
{question}

## 参考答案
{reference}

## 检索上下文
{context}

## 回答 A
{answer_a}

## 回答 B
{answer_b}

## 任务
比较两个回答。先简要说明各自哪些事实正确、哪些错误，再作出判断。两者不分高下时判 "tie"。

## 输出格式（只输出 JSON）
{"reasoning": "...", "verdict": "A" | "B" | "tie"}`,
    noReference: "（未提供）",
    noContext: "（未提供）",
  },
};
