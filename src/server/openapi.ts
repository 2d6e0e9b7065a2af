import { z } from "zod";
import { EvaluatorInputSchema } from "../gate/index.js";
import { ErrorSchema, EvaluationRecordSchema, GateResponseSchema, JudgeRequestSchema } from "./schemas.js";

// Request shapes come from the same schemas the routes validate with, so the document cannot
// drift from what the server accepts.

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
        JudgeRequest: json(JudgeRequestSchema, "input"),
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
      "/api/v1/judge": {
        post: {
          summary: "Judge one answer with LLM judges (review, rubric, reference) or the offline judge",
          requestBody: {
            required: true,
            content: { "application/json": { schema: { $ref: "#/components/schemas/JudgeRequest" } } },
          },
          responses: {
            "200": {
              description: "One result per judge, keyed by judge name, in the common JudgeResult shape",
              content: { "application/json": { schema: { type: "object", properties: { results: { type: "object" } } } } },
            },
            "400": errorResponse("Invalid JSON, or a field that fails validation"),
            "401": errorResponse("Missing or unknown API token"),
            "409": errorResponse("An LLM judge was asked for but no judge LLM is configured"),
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
