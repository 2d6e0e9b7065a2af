import type { PromptLanguage } from "./language.js";
import type { PromptTemplate } from "./template.js";

// Seed 000_3d1e17aa675c68ad.txt (`_eval_answer_node`): two dimensions, retrieved context cut to
// 500 characters per item and limited to the top-k, actionable suggestions per failing dimension.
// Placeholders: {question} {answer} {context} {top_k} {max_chars} {evidence_rule}.

export const REVIEW_PROMPTS: Record<
  PromptLanguage,
  PromptTemplate & {
    evidenceRule: { withContext: string; withoutContext: string };
    noContext: string;
  }
> = {
  en: {
    system:
      "You are a strict reviewer of answers written by a retrieval-augmented (RAG) assistant. " +
      "You judge whether an answer deserves the user's trust, using only the question, the " +
      "retrieved context and the answer below. Reply with JSON only.",
    user: `## Question
{question}

## Retrieved context (top {top_k} items, each cut to {max_chars} characters; "…" marks a cut)
{context}

## Answer to review
{answer}

## Check two dimensions
1. reasonableness: the answer stays on the question; its logic is clearly layered (conclusion, then supporting points); it has no contradictions and no hallucinations.
2. evidence: {evidence_rule}

## Problems must be actionable
Each problem names the exact conclusion, sentence or source at fault and what to change, for example:
- "Key conclusion 'revenue grew 20% in 2023' has no source citation; cite the item that states it, e.g. [2]."
- "The answer says the policy starts in 2024 but context [1] says 2025; correct the date."
- "Context does not mention pricing; state that this information is not in the sources instead of estimating it."
Never write vague problems such as "poor quality", "needs improvement" or "could be clearer".

## Output format (JSON only)
{"reasonableness": {"passed": true, "problems": []}, "evidence": {"passed": false, "problems": ["Key conclusion X has no source citation; cite [n]."]}}
A dimension that passes has an empty "problems" list; a dimension that fails lists at least one problem.`,
    evidenceRule: {
      withContext:
        "every key conclusion cites its source (e.g. [1]); the cited evidence matches the retrieved context; whatever the context does not cover is explicitly stated as insufficient information.",
      withoutContext:
        "no retrieved context was provided, so citations cannot be checked: set evidence.passed to true with no problems.",
    },
    noContext: "(no retrieved context was provided)",
  },
  zh: {
    system:
      "你是一名严格的检索增强（RAG）助手回答评审员。你只根据下面的问题、检索上下文和回答，" +
      "判断该回答是否值得用户信任。只输出 JSON。",
    user: `## 原始问题
{question}

## 检索上下文（前 {top_k} 条，每条截断为 {max_chars} 字符，“…”表示已截断）
{context}

## 待评估回答
{answer}

## 评估两个维度
1. reasonableness（合理性）：回答围绕原始问题展开；逻辑结构清晰分层（先结论，后依据）；无明显矛盾或幻觉。
2. evidence（证据标注）：{evidence_rule}

## 问题必须具体、可操作
每条问题要指出具体的结论、句子或来源，并说明如何修改，例如：
- "关键结论『2023 年营收增长 20%』缺少来源标注，请标注出处，如 [2]。"
- "回答称政策 2024 年开始实施，但检索内容 [1] 写的是 2025 年，请更正日期。"
- "检索内容未提及价格，请明确说明资料中没有该信息，而不是自行估计。"
不要写"质量差""需要改进""可以更清楚"这类笼统的问题。

## 输出格式（仅 JSON）
{"reasonableness": {"passed": true, "problems": []}, "evidence": {"passed": false, "problems": ["关键结论 X 缺少来源标注，请标注 [n]。"]}}
通过的维度 "problems" 为空列表；不通过的维度至少列出一条问题。`,
    evidenceRule: {
      withContext:
        "所有关键结论都有明确的来源标注（如 [1]）；证据准确对应检索内容；检索内容未覆盖的部分明确说明信息不足。",
      withoutContext:
        "未提供检索上下文，无法核对来源标注：请将 evidence.passed 设为 true，problems 为空。",
    },
    noContext: "（未提供检索上下文）",
  },
};
