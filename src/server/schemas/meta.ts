import { z } from "zod";
import { LLM_ROLES } from "../../llm/index.js";

// The server itself: which LLM roles it has, and its OpenAPI document.

const LlmRoleStatusSchema = z.object({
  configured: z.boolean(),
  model: z.string().nullable().describe("the model the role asks for; null when not configured"),
});

export const LlmStatusSchema = z.object({
  roles: z.object(
    Object.fromEntries(LLM_ROLES.map((role) => [role, LlmRoleStatusSchema])) as {
      [K in (typeof LLM_ROLES)[number]]: typeof LlmRoleStatusSchema;
    },
  ),
});

export const OpenApiDocumentSchema = z.record(z.string(), z.unknown());
