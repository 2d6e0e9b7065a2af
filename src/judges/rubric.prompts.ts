import type { PromptLanguage } from "./language.js";
import type { PromptTemplate } from "./template.js";

// Seed 002_b57646abb0579752.txt: a 1-10 rubric on accuracy / completeness / clarity, chain of
// thought first ("先進行錯誤分析"), JSON output, few-shot calibration against score inflation, and
// the comparison mode that borrows another answer's documents as ground truth.
// Placeholders: {question} {context_heading} {context} {answer} {mode_rule} {examples}
// {w_accuracy} {w_completeness} {w_clarity}.

export type RubricMode = "documents" | "pure" | "comparison";

export interface RubricExample {
  label: string;
  question: string;
  context: string;
  answer: string;
  reply: {
    analysis: string;
    accuracy: number;
    completeness: number;
    clarity: number;
    reason: string;
    suggestion: string;
  };
}

export interface RubricPrompts extends PromptTemplate {
  /** Heading of the context block, per mode. */
  contextHeading: Record<RubricMode, string>;
  /** How accuracy is judged, per mode. */
  modeRule: Record<RubricMode, string>;
  /** The context block in pure mode. */
  noDocuments: string;
  /** Calibration (seed 002, "分數通膨"): a fabricated answer scores 2, an honest "not in the sources" 8+. */
  examples: RubricExample[];
  exampleLabels: {
    example: string;
    question: string;
    context: string;
    answer: string;
    evaluation: string;
  };
}

export const RUBRIC_PROMPTS: Record<PromptLanguage, RubricPrompts> = {
  en: {
    system:
      "You are a strict academic reviewer grading an AI answer. Scores inflate easily: give a high " +
      "score only when it is earned, and follow the calibration examples. Reply with JSON only.",
    user: `## Material
Question: {question}

{context_heading}:
{context}

AI answer: {answer}

## Rubric (each 1-10)
1. accuracy (weight {w_accuracy}): {mode_rule}
   - 10: figures exact, citations correct, or it correctly says the documents lack the information.
   - 7-9: broadly correct, no obvious hallucination.
   - 5-6: vague wording ("about", "many"), lacks precision.
   - 1-4: serious hallucination, wrong figures, or it invents an answer the documents do not contain.
2. completeness (weight {w_completeness}): 10 covers every sub-question; 5-9 misses secondary points; 1-4 misses key points or quotes out of context.
3. clarity (weight {w_clarity}): 10 clear structure, coherent reasoning, no filler; 1-4 confused logic, ungrammatical, or does not answer the question.

## Steps (chain of thought)
First write the error analysis in "analysis": list each factual error, fabrication and omission in the answer. Only then give the scores.

## Calibration examples
{examples}

## Output format (JSON only, "analysis" first)
{"analysis": "error analysis...", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "short verdict", "suggestion": "how to improve the answer"}`,
    contextHeading: {
      documents: "Reference documents",
      pure: "Reference documents",
      comparison:
        "Ground-truth documents (retrieved by another system for the same question; the answer being graded did not see them)",
    },
    modeRule: {
      documents:
        "are figures and citations exact and supported by the reference documents? A claim the documents do not support is a hallucination, however plausible. If the documents do not contain the answer and the AI says so, that is full marks; if it makes something up instead, 1.",
      pure: "no documents are available (pure LLM mode), so judge against well-established knowledge only. Specific figures, dates or citations you cannot verify must not be rewarded as precise; saying what is not known is not a fault.",
      comparison:
        "treat the ground-truth documents as correct: the answer is accurate where it agrees with them and inaccurate where it contradicts them; a specific claim they neither support nor contradict is unverified and must not be rewarded as precise.",
    },
    noDocuments: "None (pure LLM mode: the answer was written without retrieval).",
    examples: [
      {
        label: "a fabricated answer (accuracy 2)",
        question: "What was Acme's revenue in 2023?",
        context: "[1] Acme annual report, fiscal year 2022: revenue was 4.2 million USD.",
        answer: "Acme's revenue in 2023 was 5.8 million USD, up 38% from 2022 [1].",
        reply: {
          analysis:
            "The documents only cover 2022 (4.2 million USD). The 2023 figure and the 38% growth appear nowhere and are cited to [1], which does not contain them: a fabrication presented as sourced.",
          accuracy: 2,
          completeness: 3,
          clarity: 7,
          reason:
            "Invents the 2023 revenue and growth rate and cites a source that does not contain them.",
          suggestion:
            "State that the sources do not report 2023 revenue and give the 2022 figure (4.2 million USD [1]) instead.",
        },
      },
      {
        label: "an honest answer where the sources do not say (accuracy 9)",
        question: "What was Acme's revenue in 2023?",
        context: "[1] Acme annual report, fiscal year 2022: revenue was 4.2 million USD.",
        answer:
          "The sources do not give Acme's 2023 revenue. The latest figure they report is 4.2 million USD for fiscal 2022 [1].",
        reply: {
          analysis:
            "No factual errors: it correctly says 2023 revenue is not in the sources and cites the 2022 figure accurately. It cannot answer the question fully because the information is missing.",
          accuracy: 9,
          completeness: 7,
          clarity: 9,
          reason: "Honest about the missing 2023 figure and precise about what the sources do say.",
          suggestion:
            "Optionally name where 2023 figures would be published (the 2023 annual report).",
        },
      },
    ],
    exampleLabels: {
      example: "Example",
      question: "Question",
      context: "Reference documents",
      answer: "AI answer",
      evaluation: "Evaluation",
    },
  },
  zh: {
    system:
      "你是一位严格的学术评审，负责为 AI 回答评分。评分容易通胀：只有确实达到标准才给高分，并参照校准示例。只输出 JSON。",
    user: `## 评估资料
问题：{question}

{context_heading}：
{context}

AI 回答：{answer}

## 评分标准（每项 1-10 分）
1. accuracy 精确度（权重 {w_accuracy}）：{mode_rule}
   - 10：数据精确，引用无误，或正确指出文献无相关资料。
   - 7-9：数据大致正确，无明显幻觉。
   - 5-6：使用模糊词汇（大约、很多），缺乏精确度。
   - 1-4：严重幻觉，数据错误，或文献无资料却编造答案。
2. completeness 完整性（权重 {w_completeness}）：10 完整覆盖问题的所有子面向；5-9 漏掉次要观点；1-4 遗漏关键论点或断章取义。
3. clarity 逻辑表达（权重 {w_clarity}）：10 结构清晰，推论连贯，无冗言；1-4 逻辑混乱，语句不通，答非所问。

## 评估步骤（思维链）
请先在 "analysis" 中进行错误分析，列出回答中的具体事实错误、编造内容和遗漏点，然后再给出分数。

## 校准示例
{examples}

## 输出格式（仅 JSON，"analysis" 在最前）
{"analysis": "错误分析……", "accuracy": <1-10>, "completeness": <1-10>, "clarity": <1-10>, "reason": "简短评语", "suggestion": "如何改进回答"}`,
    contextHeading: {
      documents: "参考文献",
      pure: "参考文献",
      comparison: "标准参考文献（由另一个系统针对同一问题检索得到；被评估的回答没有看到这些文献）",
    },
    modeRule: {
      documents:
        "数据和引用是否精确、是否有参考文献支持？文献不支持的说法即为幻觉，无论看起来多合理。文献没有写而 AI 说不知道 => 满分；文献没有写而 AI 编造 => 1 分。",
      pure: "没有参考文献（纯 LLM 模式），只能依据公认的知识判断。无法核实的具体数字、日期或引用不能当作精确而给分；说明自己不知道不算错误。",
      comparison:
        "以标准参考文献为准：与之一致处为准确，与之矛盾处为不准确；文献既不支持也不反驳的具体说法属于无法核实，不能当作精确而给分。",
    },
    noDocuments: "无参考文献（纯 LLM 模式：回答未经检索生成）。",
    examples: [
      {
        label: "编造的回答（accuracy 2 分）",
        question: "Acme 公司 2023 年的营收是多少？",
        context: "[1] Acme 年报，2022 财年：营收为 420 万美元。",
        answer: "Acme 公司 2023 年营收为 580 万美元，比 2022 年增长 38% [1]。",
        reply: {
          analysis:
            "文献只涵盖 2022 年（420 万美元）。2023 年的数字和 38% 的增长在文献中都不存在，却标注为 [1]：这是伪装成有来源的编造。",
          accuracy: 2,
          completeness: 3,
          clarity: 7,
          reason: "编造了 2023 年营收和增长率，并引用了并不包含这些数据的来源。",
          suggestion: "说明资料中没有 2023 年营收，并改为给出 2022 年的数字（420 万美元 [1]）。",
        },
      },
      {
        label: "资料没有写、回答诚实说明（accuracy 9 分）",
        question: "Acme 公司 2023 年的营收是多少？",
        context: "[1] Acme 年报，2022 财年：营收为 420 万美元。",
        answer:
          "资料中没有 Acme 公司 2023 年的营收。资料给出的最新数字是 2022 财年的 420 万美元 [1]。",
        reply: {
          analysis:
            "没有事实错误：正确指出资料中没有 2023 年营收，并准确引用了 2022 年的数字。由于信息缺失，无法完整回答问题。",
          accuracy: 9,
          completeness: 7,
          clarity: 9,
          reason: "诚实说明缺少 2023 年数据，并准确转述了资料中已有的信息。",
          suggestion: "可以补充 2023 年数据通常会在何处发布（2023 年年报）。",
        },
      },
    ],
    exampleLabels: {
      example: "示例",
      question: "问题",
      context: "参考文献",
      answer: "AI 回答",
      evaluation: "评估",
    },
  },
};

/** Headings of the person-scored examples from `judges.rubric.fewshot` (see rubric.ts). */
export const RUBRIC_FEWSHOT_LABELS: Record<
  PromptLanguage,
  { heading: string; score: string; note: string; intro: string }
> = {
  en: {
    intro:
      "The following answers were scored by a person on the same 1-10 scale; score alike answers alike.",
    heading: "Person-scored example",
    score: "Overall score given by the person",
    note: "The person's note",
  },
  zh: {
    intro: "以下回答由人工按同样的 1-10 分制评分；相似的回答应给相近的分数。",
    heading: "人工评分示例",
    score: "人工给出的总分",
    note: "人工评语",
  },
};
