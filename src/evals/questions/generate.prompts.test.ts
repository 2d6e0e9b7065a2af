import { describe, expect, it } from "vitest";
import { QuestionGenerationError } from "./errors.js";
import {
  fillGenerationPrompt,
  GENERATION_PROMPTS,
  validateGenerationPrompt,
} from "./generate.prompts.js";

describe("GENERATION_PROMPTS", () => {
  it("hold seed 003's Chinese text and an English translation with the same placeholders", () => {
    expect(GENERATION_PROMPTS.zh).toMatch(/^你是一个善于提出问题的专家。/);
    expect(GENERATION_PROMPTS.zh).toContain("请根据以上文档，生成 {N} 个问题。");
    for (const template of Object.values(GENERATION_PROMPTS)) {
      expect(template.match(/\{document_content\}/g)).toHaveLength(1);
      expect(template.match(/\{N\}/g)).toHaveLength(1);
      expect(template).toContain("`question_type` ('FACTUAL'");
    }
    expect(GENERATION_PROMPTS.en).toContain("generate {N} questions");
  });
});

describe("validateGenerationPrompt", () => {
  it("accepts a template with {document_content}, with or without {N}", () => {
    expect(validateGenerationPrompt("Ask about:\n{document_content}")).toBe(
      "Ask about:\n{document_content}",
    );
  });

  it("rejects a template without {document_content}, or an empty one, naming the option", () => {
    const missing = () => validateGenerationPrompt("Ask {N} questions about {document}.");
    expect(missing).toThrow(QuestionGenerationError);
    expect(missing).toThrow(/^prompt: the template must contain \{document_content\}/);
    expect(() => validateGenerationPrompt("  ")).toThrow("prompt: expected a prompt template");
  });
});

describe("fillGenerationPrompt", () => {
  it("fills both placeholders in one pass, never expanding text from the chunk", () => {
    const filled = fillGenerationPrompt("N={N}; doc={document_content}; again {N}", {
      document_content: "a chunk mentioning {N} and {document_content}",
      N: 3,
    });
    expect(filled).toBe("N=3; doc=a chunk mentioning {N} and {document_content}; again 3");
  });

  it("leaves JSON braces in the template alone", () => {
    const filled = fillGenerationPrompt(GENERATION_PROMPTS.en, { document_content: "X", N: 2 });
    expect(filled).toContain('"question_type": "FACTUAL"');
    expect(filled).toContain("```\nX\n```");
    expect(filled).toContain("generate 2 questions");
  });
});
