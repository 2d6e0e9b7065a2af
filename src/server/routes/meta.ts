import { z } from "zod";
import { isLlmConfigured } from "../../config/index.js";
import { LLM_ROLES, type LlmConfig, resolveModelConfig } from "../../llm/index.js";
import { defineRoute } from "../route.js";
import { LlmStatusSchema, OkSchema, OpenApiDocumentSchema } from "../schemas/index.js";

/**
 * Which LLM roles the server has, for forms that offer LLM judges or generation (issue 23 §5):
 * the model names only, never a key or an address.
 */
export function llmStatusOf(llm: LlmConfig): z.infer<typeof LlmStatusSchema> {
  const status = (role: (typeof LLM_ROLES)[number]) => {
    const configured = isLlmConfigured(llm, role);
    return { configured, model: configured ? resolveModelConfig(llm, role).model : null };
  };
  return {
    roles: {
      generator: status("generator"),
      judge: status("judge"),
      rewriter: status("rewriter"),
      embedder: status("embedder"),
    },
  };
}

export const metaApi = {
  health: defineRoute({
    method: "get",
    path: "/api/v1/health",
    tags: ["meta"],
    summary: "Liveness: answers without a login",
    public: true,
    responses: { 200: { description: "Up", schema: OkSchema } },
  }),
  llm: defineRoute({
    method: "get",
    path: "/api/v1/llm",
    access: "member",
    tags: ["meta"],
    summary:
      "Which LLM roles (generator, judge, rewriter, embedder) the server has, and their models",
    responses: { 200: { description: "Each role's status", schema: LlmStatusSchema } },
  }),
  openapi: defineRoute({
    method: "get",
    path: "/api/v1/openapi.json",
    tags: ["meta"],
    summary: "This document, generated from the route table",
    public: true,
    responses: {
      200: { description: "The OpenAPI 3.0 document", schema: OpenApiDocumentSchema },
    },
  }),
};
