import type { PromptLanguage } from "./language.js";
import type { PromptTemplate } from "./template.js";

// Seed 003_05ba2f30a0c7805c.txt section 5.1: a 1-5 judgement of the RAG answer against a ground
// truth, returning `score` and `reasoning`. Placeholders: {question} {ground_truth} {rag_answer}.
// With several acceptable references, {ground_truth} holds `several` followed by the numbered
// references; with one, the reference alone, so a single-reference prompt is the seed's.

/** A reference prompt: the seed's template, and the line that introduces several references. */
export interface ReferencePrompt extends PromptTemplate {
  several: string;
}

export const REFERENCE_PROMPTS: Record<PromptLanguage, ReferencePrompt> = {
  en: {
    several:
      "Each of these references is an acceptable answer; judge the RAG answer against the one it matches best:",
    system:
      "You are an objective, rigorous expert in evaluating the answers of RAG systems. Reply with JSON only.",
    user: `Score the RAG system's answer against the ground truth.

**Scoring (1-5):**
- 5 (perfect): facts 100% accurate, fully grounded in the sources, answers the whole question, no redundancy, fluent.
- 4 (high quality): nearly all information accurate, perhaps a very minor flaw, essentially complete, readable.
- 3 (medium quality): some correct information but also clear errors or omissions; the user must sort out what is right.
- 2 (low quality): much wrong information, or fails to resolve the question; may mislead the user.
- 1 (wrong or no answer): entirely wrong, hallucinated, or refuses to answer.

**To evaluate:**
1. **Question:**
\`\`\`
{question}
\`\`\`
2. **Ground truth:**
\`\`\`
{ground_truth}
\`\`\`
3. **RAG system answer:**
\`\`\`
{rag_answer}
\`\`\`

**Your task:**
Output your judgement as JSON with two fields: \`score\` (an integer 1-5) and \`reasoning\` (a string explaining the score).

**Example output:**
{"score": 4, "reasoning": "Accurate and covers the main points, but omits the minor contributors mentioned in the ground truth. Clear, though it could be more concise."}`,
  },
  zh: {
    several: "以下每个标准答案都可以接受；请以与 RAG 系统回答最匹配的那一个为准进行评分：",
    system: "你是一个客观、严谨的 RAG 系统回答质量评估专家。只输出 JSON。",
    user: `请根据以下信息，对 RAG 系统的回答进行评分。

**评分标准 (5分制):**
- 5分 (完美回答): 事实100%准确，完全基于来源，全面回答了问题，无任何冗余，语言流畅。
- 4分 (高质量回答): 绝大部分信息准确，可能有极微小瑕疵，基本完整，可读性好。
- 3分 (中等质量回答): 包含部分正确信息，但也有明显错误或遗漏，需要用户自行辨别。
- 2分 (低质量回答): 包含大量错误信息，或未能解决问题，可能会误导用户。
- 1分 (错误或无法回答): 完全错误，产生幻觉，或拒绝回答。

**待评估信息:**
1.  **原始问题:**
\`\`\`
{question}
\`\`\`
2.  **标准答案 (Ground Truth):**
\`\`\`
{ground_truth}
\`\`\`
3.  **RAG 系统回答:**
\`\`\`
{rag_answer}
\`\`\`

**你的任务:**
请以 JSON 格式输出你的评判结果，包含两个字段：\`score\` (1-5的整数) 和 \`reasoning\` (解释你打分原因的字符串)。

**输出示例:**
{"score": 4, "reasoning": "回答基本准确并涵盖了主要信息点，但遗漏了关于次要贡献者的细节。语言表达清晰，但可以更简洁一些。"}`,
  },
};
