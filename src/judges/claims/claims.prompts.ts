import type { PromptLanguage } from "../language.js";
import type { PromptTemplate } from "../template.js";

// RAGChecker's two steps (amazon-science/RAGChecker, through RefChecker's extractor and checker):
// break a text into claims, then check each claim against a reference text as Entailment,
// Neutral or Contradiction. One check call takes a whole claim set against one reference (a
// retrieved chunk, the ground truth or the response), as RefChecker's joint checking does.
//
// extract placeholders: {question} {text}
// check placeholders:   {question} {reference} (what it is) {reference_text} {claims} {count}

export interface ClaimsPrompts {
  extract: PromptTemplate;
  check: PromptTemplate;
  /** What a chunk, the ground truth and the response are called in a check prompt's heading. */
  references: { chunk: string; ground_truth: string; response: string };
}

export const CLAIMS_PROMPTS: Record<PromptLanguage, ClaimsPrompts> = {
  en: {
    extract: {
      system:
        "You break a text into the factual claims it makes, for checking each one separately. " +
        "Reply with JSON only.",
      user: `## Question the text answers (use it only to resolve what the text refers to)
{question}

## Text
{text}

## Rules
- Each claim states one fact, in one short sentence that stands on its own: resolve pronouns and references ("it", "the river") to what they name.
- Keep numbers, dates, units and names exactly as the text writes them.
- Cover every fact the text states, and nothing it does not state.
- Leave out greetings, questions, opinions about the reader, and statements that the information is unavailable.
- A text that states no fact gives an empty list.

## Output format (JSON only)
{"claims": ["The Nile flows into the Mediterranean Sea.", "The Nile is about 6,650 km long."]}`,
    },
    check: {
      system:
        "You check claims against a reference text, one verdict per claim, using only that text. " +
        "Reply with JSON only.",
      user: `## Question (context only)
{question}

## Reference: {reference}
{reference_text}

## Claims ({count})
{claims}

## For each claim, in order, one verdict
- "Entailment": the reference states the claim or clearly implies it.
- "Contradiction": the reference states something that makes the claim false.
- "Neutral": the reference neither supports nor contradicts it (it does not say).
Judge by the reference alone, never by what you know.

## Output format (JSON only, exactly {count} verdicts in the claims' order)
{"verdicts": ["Entailment", "Neutral", "Contradiction"]}`,
    },
    references: {
      chunk: "retrieved passage {n}",
      ground_truth: "the ground-truth answer",
      response: "the answer under test",
    },
  },
  zh: {
    extract: {
      system: "你把一段文字拆成其中陈述的事实性断言，以便逐条核对。只输出 JSON。",
      user: `## 这段文字回答的问题（仅用于理解文字所指）
{question}

## 文字
{text}

## 规则
- 每条断言只陈述一个事实，用一句能独立理解的短句；把代词和指代（“它”“这条河”）换成所指的对象。
- 数字、日期、单位和名称按原文照写。
- 覆盖文字陈述的每个事实，不添加文字没有陈述的内容。
- 不要收录问候、提问、对读者的评价，以及“资料中没有该信息”之类的说明。
- 没有陈述任何事实的文字给出空列表。

## 输出格式（仅 JSON）
{"claims": ["尼罗河注入地中海。", "尼罗河全长约 6650 公里。"]}`,
    },
    check: {
      system: "你只根据一段参考文字核对若干断言，每条断言给出一个判定。只输出 JSON。",
      user: `## 问题（仅供参考）
{question}

## 参考文字：{reference}
{reference_text}

## 断言（{count} 条）
{claims}

## 按顺序为每条断言给出一个判定
- "Entailment"：参考文字陈述了该断言，或明确蕴含它。
- "Contradiction"：参考文字陈述的内容使该断言不成立。
- "Neutral"：参考文字既不支持也不否定它（没有提到）。
只依据参考文字判断，不要依据你自己的知识。

## 输出格式（仅 JSON，按断言顺序恰好 {count} 个判定）
{"verdicts": ["Entailment", "Neutral", "Contradiction"]}`,
    },
    references: {
      chunk: "检索到的第 {n} 段",
      ground_truth: "标准答案",
      response: "待评估的回答",
    },
  },
};
