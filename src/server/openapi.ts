import { z } from "zod";
import { accessOf } from "./access.js";
import { RegisterBotSchema } from "../evals/bots/index.js";
import { GenerateQuestionsRequestSchema } from "../evals/generation/index.js";
import {
  AddQuestionsSchema,
  CreateQuestionSetSchema,
  ImportQuestionSetSchema,
  UpdateQuestionSchema,
  UpdateQuestionSetSchema,
} from "../evals/question-sets/index.js";
import { ArenaRequestSchema } from "../evals/arena/index.js";
import { LabelInputSchema } from "../evals/calibration/index.js";
import { EvaluationRequestSchema } from "../evals/runs/index.js";
import { EvaluatorInputSchema } from "../gate/index.js";
import { UploadsSchema } from "../rag/index.js";
import { type AnyRouteSpec, openApiPath } from "./route.js";
import { API_ROUTES } from "./routes/index.js";
import { ResumeRequestSchema, RetryRequestSchema } from "./routes/evaluations.js";
import * as answers from "./routes/answers.js";
import * as ingestKeys from "./routes/ingest-keys.js";
import * as labels from "./routes/labels.js";
import { AskRequestSchema, CreateCollectionSchema } from "./routes/rag.js";
import { SessionLoginSchema } from "./routes/session.js";
import * as api from "./schemas.js";

// The OpenAPI document, generated from the route table (routes/index.ts): each operation comes
// from the same declaration that mounts and validates the route. Named schemas become components
// that operations and other components refer to.

/** Request bodies, shown as the server accepts them (defaults optional). */
const REQUEST_COMPONENTS: Record<string, z.ZodType> = {
  EvaluatorInput: EvaluatorInputSchema,
  AnswerBatch: answers.AnswerBatchSchema,
  CreateIngestKey: ingestKeys.CreateIngestKeySchema,
  JudgeRequest: api.JudgeRequestSchema,
  CreateCollection: CreateCollectionSchema,
  Uploads: UploadsSchema,
  AskRequest: AskRequestSchema,
  CreateQuestionSet: CreateQuestionSetSchema,
  ImportQuestionSet: ImportQuestionSetSchema,
  UpdateQuestionSet: UpdateQuestionSetSchema,
  AddQuestions: AddQuestionsSchema,
  UpdateQuestion: UpdateQuestionSchema,
  GenerateQuestionsRequest: GenerateQuestionsRequestSchema,
  EvaluationRequest: EvaluationRequestSchema,
  ResumeRequest: ResumeRequestSchema,
  RetryRequest: RetryRequestSchema,
  SessionLogin: SessionLoginSchema,
  RegisterBot: RegisterBotSchema,
  ArenaRequest: ArenaRequestSchema,
  LabelInput: LabelInputSchema,
  ImportLabels: labels.ImportLabelsSchema,
};

/** Response bodies, shown as the server sends them. */
const RESPONSE_COMPONENTS: Record<string, z.ZodType> = {
  Error: api.ErrorSchema,
  CodedMessage: api.CodedMessageSchema,
  Ok: api.OkSchema,
  GateResponse: api.GateResponseSchema,
  GuardResponse: api.GuardResponseSchema,
  AnswerBatchResult: answers.AnswerBatchResultSchema,
  AnswerRecord: answers.AnswerRecordSchema,
  AnswerRecordList: answers.AnswerRecordListSchema,
  IngestKey: ingestKeys.IngestKeySchema,
  CreatedIngestKey: ingestKeys.CreatedIngestKeySchema,
  IngestKeyList: ingestKeys.IngestKeyListSchema,
  EvaluationRecord: api.EvaluationRecordSchema,
  EvaluationRecordList: api.EvaluationRecordListSchema,
  JudgeResult: api.JudgeResultSchema,
  JudgeResponse: api.JudgeResponseSchema,
  Collection: api.CollectionSchema,
  CollectionSummary: api.CollectionSummarySchema,
  CollectionList: api.CollectionListSchema,
  IngestResult: api.IngestResultSchema,
  AskResponse: api.AskResponseSchema,
  QuestionSet: api.QuestionSetSchema,
  QuestionSetList: api.QuestionSetListSchema,
  Question: api.QuestionSchema,
  QuestionList: api.QuestionListSchema,
  QuestionSetWithQuestions: api.QuestionSetWithQuestionsSchema,
  QuestionSetVersionSummary: api.QuestionSetVersionSummarySchema,
  QuestionSetVersionList: api.QuestionSetVersionListSchema,
  QuestionSetVersion: api.QuestionSetVersionSchema,
  QuestionSetVersionDiff: api.QuestionSetVersionDiffSchema,
  VersionQuestion: api.VersionQuestionSchema,
  GenerationStarted: api.GenerationStartedSchema,
  QuestionGeneration: api.QuestionGenerationSchema,
  Evaluation: api.EvaluationSchema,
  Progress: api.ProgressSchema,
  EvaluationSummary: api.EvaluationSummarySchema,
  EvaluationResult: api.EvaluationResultSchema,
  EvaluationResultListItem: api.EvaluationResultListItemSchema,
  EvaluationListItem: api.EvaluationListItemSchema,
  EvaluationList: api.EvaluationListSchema,
  EvaluationDetail: api.EvaluationDetailSchema,
  ResultsPage: api.ResultsPageSchema,
  Session: api.SessionSchema,
  SessionCreated: api.SessionCreatedSchema,
  EvaluationCharts: api.EvaluationChartsSchema,
  EvaluationComparison: api.EvaluationComparisonSchema,
  QuestionSetTrend: api.QuestionSetTrendSchema,
  Bot: api.BotSchema,
  BotList: api.BotListSchema,
  Arena: api.ArenaSchema,
  ArenaList: api.ArenaListSchema,
  HumanLabel: labels.HumanLabelSchema,
  RunLabelList: labels.RunLabelListSchema,
  ResultLabelList: labels.ResultLabelListSchema,
  NextToLabel: labels.NextToLabelSchema,
  LabelItem: labels.LabelItemSchema,
  LabelImportResult: labels.LabelImportResultSchema,
  CalibrationReport: labels.CalibrationReportSchema,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
type JsonSchema = Record<string, unknown>;
type Io = "input" | "output";

function registryOf(components: Record<string, z.ZodType>) {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  return registry;
}

/** Every named schema as a component, cross-references as $refs, without zod's `$id`s. */
function componentSchemas(components: Record<string, z.ZodType>, io: Io) {
  const { schemas } = z.toJSONSchema(registryOf(components), {
    target: "openapi-3.0",
    io,
    unrepresentable: "any",
    uri: (id) => ref(id).$ref,
  }) as { schemas: Record<string, JsonSchema> };
  return Object.fromEntries(
    Object.entries(schemas).map(([name, { $id: _id, ...schema }]) => [name, schema]),
  );
}

function schemaJson(schema: z.ZodType, io: Io): JsonSchema {
  const named = io === "input" ? REQUEST_COMPONENTS : RESPONSE_COMPONENTS;
  const name = Object.keys(named).find((key) => named[key] === schema);
  if (name) return ref(name);
  const { $schema: _s, ...json } = z.toJSONSchema(schema, {
    target: "openapi-3.0",
    io,
    unrepresentable: "any",
  }) as JsonSchema;
  return json;
}

function parameters(spec: AnyRouteSpec) {
  const of = (where: "path" | "query", shape: z.ZodRawShape | undefined) =>
    Object.entries(shape ?? {}).map(([name, field]) => {
      const schema = schemaJson(field as z.ZodType, "input");
      const { description, ...rest } = schema;
      return {
        name,
        in: where,
        required: where === "path" || !(field as z.ZodType).safeParse(undefined).success,
        schema: rest,
        ...(typeof description === "string" ? { description } : {}),
      };
    });
  return [...of("path", spec.params?.shape), ...of("query", spec.query?.shape)];
}

function operation(spec: AnyRouteSpec) {
  const params = parameters(spec);
  const responses = Object.fromEntries(
    Object.entries(spec.responses).map(([status, response]) => {
      const content = response.content
        ? { [response.content.type]: { schema: schemaJson(response.content.schema, "output") } }
        : response.schema
          ? { "application/json": { schema: schemaJson(response.schema, "output") } }
          : undefined;
      return [status, { description: response.description, ...(content ? { content } : {}) }];
    }),
  );
  if (!spec.public) {
    responses["401"] ??= {
      description: "Not logged in: no known token or session cookie",
      content: { "application/json": { schema: ref("Error") } },
    };
    responses["403"] ??= {
      description: `Your role in this workspace does not allow it (needs ${accessOf(spec)})`,
      content: { "application/json": { schema: ref("Error") } },
    };
    responses["429"] ??= {
      description:
        "Too many wrong tokens, cookies or login codes from this address: wait for Retry-After seconds",
      content: { "application/json": { schema: ref("Error") } },
    };
  }
  return {
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [...spec.tags],
    operationId: operationId(spec),
    ...(spec.public ? { security: [] } : { "x-ragjudge-access": accessOf(spec) }),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.bodyOptional,
            content: { "application/json": { schema: schemaJson(spec.body, "input") } },
          },
        }
      : {}),
    responses,
  };
}

/** `get /api/v1/evaluations/:id/results` → `getEvaluationsIdResults`. */
function operationId(spec: AnyRouteSpec): string {
  const words = spec.path
    .replace(/^\/api\/v1\//, "")
    .split(/[/.-]/)
    .filter(Boolean)
    .map((word) => word.replace(/^:/, "by_"))
    .flatMap((word) => word.split("_"));
  return [spec.method, ...words]
    .map((word, i) => (i === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join("");
}

let cached: Record<string, unknown> | undefined;

export function buildOpenApiDocument(): Record<string, unknown> {
  if (cached) return cached;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of API_ROUTES) {
    const path = openApiPath(spec.path);
    paths[path] ??= {};
    paths[path][spec.method] = operation(spec);
  }
  cached = {
    openapi: "3.0.3",
    info: {
      title: "ragjudge API",
      version: "1",
      description:
        "Gates RAG answers on their evidence, judges them, runs evaluations, and stores every verdict for audit. Log in with `Authorization: Bearer <token>` or the web app's session cookie.",
    },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer" },
        session: { type: "apiKey", in: "cookie", name: "ragjudge_session" },
      },
      schemas: {
        ...componentSchemas(REQUEST_COMPONENTS, "input"),
        ...componentSchemas(RESPONSE_COMPONENTS, "output"),
      },
    },
    security: [{ bearer: [] }, { session: [] }],
    paths,
  };
  return cached;
}
