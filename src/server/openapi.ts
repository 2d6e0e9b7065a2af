import { z } from "zod";
import { GenerateQuestionsRequestSchema } from "../evals/generation/index.js";
import {
  AddQuestionsSchema,
  CreateQuestionSetSchema,
  ImportQuestionSetSchema,
  UpdateQuestionSchema,
  UpdateQuestionSetSchema,
} from "../evals/question-sets/index.js";
import { RegisterBotSchema } from "../evals/bots/index.js";
import { EvaluationRequestSchema } from "../evals/runs/index.js";
import { EvaluatorInputSchema } from "../gate/index.js";
import { UploadsSchema } from "../rag/index.js";
import { LabelInputSchema } from "../evals/calibration/index.js";
import { calibrationPaths } from "./openapi-calibration.js";
import { evaluationPaths, questionSetPaths } from "./openapi-evals.js";
import { RetryRequestSchema } from "./routes/evaluations.js";
import { ImportLabelsSchema } from "./routes/labels.js";
import { AskRequestSchema, CreateCollectionSchema } from "./routes/rag.js";
import {
  ErrorSchema,
  EvaluationRecordSchema,
  GateResponseSchema,
  JudgeRequestSchema,
  QuestionGenerationSchema,
} from "./schemas.js";

// Request shapes come from the same schemas the routes validate with, so the document cannot
// drift from what the server accepts.

const json = (schema: z.ZodType, io: "input" | "output" = "output") =>
  z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" });

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const body = (schema: string) => ({
  required: true,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const objectResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: { type: "object" } } },
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
        CreateCollection: json(CreateCollectionSchema, "input"),
        Uploads: json(UploadsSchema, "input"),
        AskRequest: json(AskRequestSchema, "input"),
        GateResponse: json(GateResponseSchema),
        EvaluationRecord: json(EvaluationRecordSchema),
        Error: json(ErrorSchema),
        CreateQuestionSet: json(CreateQuestionSetSchema, "input"),
        ImportQuestionSet: json(ImportQuestionSetSchema, "input"),
        UpdateQuestionSet: json(UpdateQuestionSetSchema, "input"),
        AddQuestions: json(AddQuestionsSchema, "input"),
        UpdateQuestion: json(UpdateQuestionSchema, "input"),
        GenerateQuestionsRequest: json(GenerateQuestionsRequestSchema, "input"),
        QuestionGeneration: json(QuestionGenerationSchema),
        EvaluationRequest: json(EvaluationRequestSchema, "input"),
        RetryRequest: json(RetryRequestSchema, "input"),
        LabelInput: json(LabelInputSchema, "input"),
        ImportLabels: json(ImportLabelsSchema, "input"),
        RegisterBot: json(RegisterBotSchema, "input"),
      },
    },
    security: [{ bearer: [] }],
    paths: {
      ...questionSetPaths(),
      ...evaluationPaths(),
      ...calibrationPaths(),
      ...botPaths(),
      "/api/v1/gate": {
        post: {
          summary: "Gate one answer on its evidence and store the record",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/EvaluatorInput" } },
            },
          },
          responses: {
            "201": {
              description: "The verdict and the stored record's id",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/GateResponse" } },
              },
            },
            "400": errorResponse(
              "Invalid JSON, or a field that fails validation (named in issues[].path)",
            ),
            "401": errorResponse("Missing or unknown API token"),
            "413": errorResponse("Body too large"),
          },
        },
      },
      "/api/v1/judge": {
        post: {
          summary:
            "Judge one answer with LLM judges (review, rubric, reference) or the offline judge",
          requestBody: {
            required: true,
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/JudgeRequest" } },
            },
          },
          responses: {
            "200": {
              description:
                "One result per judge, keyed by judge name, in the common JudgeResult shape",
              content: {
                "application/json": {
                  schema: { type: "object", properties: { results: { type: "object" } } },
                },
              },
            },
            "400": errorResponse("Invalid JSON, or a field that fails validation"),
            "401": errorResponse("Missing or unknown API token"),
            "409": errorResponse("An LLM judge was asked for but no judge LLM is configured"),
            "413": errorResponse("Body too large"),
          },
        },
      },
      "/api/v1/collections": {
        post: {
          summary: "Create a collection (its name is unique per user)",
          requestBody: body("CreateCollection"),
          responses: {
            "201": objectResponse("The collection"),
            "400": errorResponse("Invalid body"),
            "409": errorResponse("Name taken"),
          },
        },
        get: { summary: "List your collections", responses: { "200": objectResponse("{items}") } },
      },
      "/api/v1/collections/{id}/documents": {
        post: {
          summary: "Ingest documents (Markdown, text, HTML, PDF as base64, JSONL); all or nothing",
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          requestBody: body("Uploads"),
          responses: {
            "201": objectResponse(
              "Counts: documents added, unchanged, replaced; chunks added, removed, embedded",
            ),
            "400": errorResponse(
              "An unreadable file or line, named in issues[].path; nothing was ingested",
            ),
            "404": errorResponse("No such collection for this user"),
          },
        },
      },
      "/api/v1/ask": {
        post: {
          summary: "Answer with the built-in agentic RAG bot, gated on its evidence",
          requestBody: body("AskRequest"),
          responses: {
            "200": objectResponse(
              "The full state: hits with sources and scores, grades, rewrites, epochs, evaluations, the answer with citations, the gate verdict and action, the step trace and Mermaid diagrams of both loops",
            ),
            "400": errorResponse("Invalid body"),
            "404": errorResponse("No such collection for this user"),
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
                      items: {
                        type: "array",
                        items: { $ref: "#/components/schemas/EvaluationRecord" },
                      },
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
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } },
          ],
          responses: {
            "200": {
              description: "The record, with its input for replay",
              content: {
                "application/json": { schema: { $ref: "#/components/schemas/EvaluationRecord" } },
              },
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

/** A user's HTTP bots (routes/bots.ts); no response carries the secret. */
function botPaths() {
  const id = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
  return {
    "/api/v1/bots": {
      get: {
        summary: "List your registered HTTP bots (never their secrets)",
        responses: {
          "200": objectResponse("`{items}`"),
          "401": errorResponse("Missing or unknown API token"),
        },
      },
      post: {
        summary: "Register an HTTP bot with the secret sent to its URL only",
        requestBody: body("RegisterBot"),
        responses: {
          "201": objectResponse("The bot, with `has_secret` instead of the secret"),
          "400": errorResponse("An invalid field, or a URL the bot network policy refuses"),
          "409": errorResponse("You already have a bot of that name"),
          "415": errorResponse("The body is not application/json"),
        },
      },
    },
    "/api/v1/bots/{id}": {
      get: {
        summary: "Read one of your bots (another user's id is 404)",
        parameters: [id],
        responses: {
          "200": objectResponse("The bot"),
          "404": errorResponse("No such bot for this user"),
        },
      },
      delete: {
        summary: "Delete one of your bots; runs that name it fail at their probe",
        parameters: [id],
        responses: {
          "204": { description: "Deleted" },
          "404": errorResponse("No such bot for this user"),
        },
      },
    },
  };
}
