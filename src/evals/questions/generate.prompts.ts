import type { PromptLanguage } from "../../judges/index.js";
import { QuestionGenerationError } from "./errors.js";

// Seed 003_05ba2f30a0c7805c.txt section 5.2: questions with ground truths generated from a
// document. Placeholders: {document_content} (one chunk) and {N} (how many questions to ask for).
// The Chinese text is the seed's, verbatim; the English one translates it.

export const GENERATION_PROMPTS: Record<PromptLanguage, string> = {
  en: `You are an expert at asking questions. Read the following document content carefully and, based on it, generate questions of two types together with their ground-truth answers.

**Question types:**
1.  **Factual questions (Factual)**: questions whose answer can be found stated explicitly in the text.
2.  **Inferential questions (Inferential)**: questions whose answer requires combining several pieces of information in the text to reason, compare or summarize.

**Document content:**
\`\`\`
{document_content}
\`\`\`

**Your task:**
Based on the document above, generate {N} questions. Output a list of questions in JSON format; each question object has three fields: \`question_type\` ('FACTUAL' or 'INFERENTIAL'), \`question_text\` (the question), and \`ground_truth\` (the ground-truth answer based on the document content).

**Example output:**
[
  {
    "question_type": "FACTUAL",
    "question_text": "In which year did the project mentioned in the document start?",
    "ground_truth": "According to the document, the project officially started in 2021."
  },
  {
    "question_type": "INFERENTIAL",
    "question_text": "How do the main challenges of the project's early stage differ from those of its later stage?",
    "ground_truth": "The early challenges were mainly choosing the technology and building the team; later they shifted to optimizing system performance and marketing."
  }
]`,
  zh: `你是一个善于提出问题的专家。请仔细阅读以下文档内容，并根据内容生成两种类型的问题和对应的标准答案。

**问题类型:**
1.  **事实性问题 (Factual)**: 可以直接从文本中找到明确答案的问题。
2.  **推理性问题 (Inferential)**: 需要结合文本中多个信息点进行推理、比较或总结才能得出答案的问题。

**文档内容:**
\`\`\`
{document_content}
\`\`\`

**你的任务:**
请根据以上文档，生成 {N} 个问题。请以 JSON 格式输出一个问题列表，每个问题对象包含三个字段: \`question_type\` ('FACTUAL' 或 'INFERENTIAL'), \`question_text\` (问题内容), 和 \`ground_truth\` (基于文档内容得到的标准答案)。

**输出示例:**
[
  {
    "question_type": "FACTUAL",
    "question_text": "文档中提到的项目启动于哪一年？",
    "ground_truth": "根据文档，该项目于2021年正式启动。"
  },
  {
    "question_type": "INFERENTIAL",
    "question_text": "项目早期阶段和后期阶段的主要挑战有何不同？",
    "ground_truth": "项目早期挑战主要是技术选型和团队组建，后期挑战则转变为系统性能优化和市场推广。"
  }
]`,
};

/**
 * The system message. A json_object server cannot return a bare list, so the model is told where
 * to put it; the parser accepts both shapes.
 */
export const GENERATION_SYSTEM_PROMPTS: Record<PromptLanguage, string> = {
  en: 'Reply with JSON only. If you must reply with a JSON object, put the list under the key "questions".',
  zh: '只输出 JSON。如果必须输出 JSON 对象，请把问题列表放在 "questions" 键下。',
};

/** Appended to the user message when only some question types are wanted. {types} e.g. "FACTUAL". */
export const TYPE_RESTRICTION_PROMPTS: Record<PromptLanguage, string> = {
  en: "Generate only questions of type {types}.",
  zh: "只生成 {types} 类型的问题。",
};

const PLACEHOLDERS = /\{(document_content|N)\}/g;

/** A user-edited template must still say where the chunk goes; {N} may be left out. */
export function validateGenerationPrompt(template: string): string {
  if (template.trim() === "") {
    throw new QuestionGenerationError("prompt", "expected a prompt template, got an empty one");
  }
  if (!template.includes("{document_content}")) {
    throw new QuestionGenerationError(
      "prompt",
      "the template must contain {document_content}, where each chunk's text is inserted (and may contain {N}, the number of questions)",
    );
  }
  return template;
}

/**
 * Fills the placeholders in one pass, so a chunk that itself contains "{N}" is inserted as
 * written and never expanded.
 */
export function fillGenerationPrompt(
  template: string,
  values: { document_content: string; N: number },
): string {
  return template.replace(PLACEHOLDERS, (_match, name: string) =>
    name === "N" ? String(values.N) : values.document_content,
  );
}
