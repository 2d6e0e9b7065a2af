import { z } from "zod";
import {
  EvaluationCheckSchema,
  EvaluatorInputSchema,
  GateActionSchema,
  GateConfigSchema,
  GateStatusSchema,
} from "../gate/index.js";

// Response shapes of the HTTP API. Request shapes come from the gate's own schemas, so the document
// cannot drift from what the server validates.

export const ErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

export const EvaluationRecordSchema = z.object({
  id: z.uuid(),
  conversation_id: z.string(),
  message_id: z.string(),
  retrieval_record_id: z.string(),
  generation_record_id: z.string(),
  status: GateStatusSchema,
  action: GateActionSchema,
  rule_version: z.string(),
  config: GateConfigSchema,
  checks: z.array(EvaluationCheckSchema),
  scores: z.record(z.string(), z.number()),
  meta: z.record(z.string(), z.unknown()),
  input: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

export const GateResponseSchema = EvaluationRecordSchema.omit({ input: true }).extend({
  record_id: z.uuid(),
});

const json = (schema: z.ZodType, io: "input" | "output" = "output") =>
  z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" });

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

let cached: Record<string, unknown> | undefined;

export function buildOpenApiDocument(): Record<string, unknown> {
  cached ??= {
    openapi: "3.0.3",
    info: {
      title: "ragjudge API",
      version: "1",
      description: "Gates RAG answers on their evidence and stores every verdict for audit.",
    },
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: {
        EvaluatorInput: json(EvaluatorInputSchema, "input"),
        GateResponse: json(GateResponseSchema),
        EvaluationRecord: json(EvaluationRecordSchema),
        Error: json(ErrorSchema),
      },
    },
    security: [{ bearer: [] }],
    paths: {
      "/api/v1/gate": {
        post: {
          summary: "Gate one answer on its evidence and store the record",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/EvaluatorInput" } } },
          },
          responses: {
            "201": {
              description: "The verdict and the stored record's id",
              content: { "application/json": { schema: { $ref: "#/components/schemas/GateResponse" } } },
            },
            "400": errorResponse("Invalid JSON, or a field that fails validation (named in issues[].path)"),
            "401": errorResponse("Missing or unknown API token"),
            "413": errorResponse("Body too large"),
          },
        },
      },
      "/api/v1/evaluation-records": {
        get: {
          summary: "List your evaluation records, newest first",
          parameters: [
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500 } },
            { name: "before_seq", in: "query", schema: { type: "integer" } },
          ],
          responses: {
            "200": {
              description: "A page of records",
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      items: { type: "array", items: { $ref: "#/components/schemas/EvaluationRecord" } },
                      next_before_seq: { type: "integer", nullable: true },
                    },
                  },
                },
              },
            },
            "401": errorResponse("Missing or unknown API token"),
          },
        },
      },
      "/api/v1/evaluation-records/{id}": {
        get: {
          summary: "Read one stored evaluation record (another user's id is 404)",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
          responses: {
            "200": {
              description: "The record, with its input for replay",
              content: { "application/json": { schema: { $ref: "#/components/schemas/EvaluationRecord" } } },
            },
            "401": errorResponse("Missing or unknown API token"),
            "404": errorResponse("No such record for this user"),
          },
        },
      },
    },
  };
  return cached;
}
