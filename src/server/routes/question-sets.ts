import { z } from "zod";
import { actorOf } from "../auth.js";
import {
  GenerateQuestionsRequestSchema,
  getGeneration,
  requestQuestionGeneration,
} from "../../evals/generation/index.js";
import {
  AddQuestionsSchema,
  appendQuestions,
  ChangeQuestionsSchema,
  changeSetQuestions,
  diffQuestionSetVersions,
  CreateQuestionSetSchema,
  createQuestionSetWithQuestions,
  editQuestion,
  exportQuestionSet,
  getQuestionSetWithQuestions,
  ImportQuestionSetSchema,
  importQuestionSet,
  type QuestionSetWithQuestions,
  questionSetVersion,
  questionSetVersions,
  removeQuestion,
  removeQuestionSet,
  restoreQuestionSetVersion,
  UpdateQuestionSchema,
  UpdateQuestionSetSchema,
  updateQuestionSetMeta,
  VersionDiffQuerySchema,
} from "../../evals/question-sets/index.js";
import { questionSetTrend } from "../../evals/monitor/index.js";
import { QUESTION_FORMATS, QUESTION_LIMITS } from "../../evals/questions/index.js";
import { listQuestionSets, recordAudit } from "../../store/index.js";
import type { App, RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { publicGeneration, publicQuestion, publicQuestionSet } from "../rows.js";
import {
  ErrorSchema,
  FileDownloadSchema,
  GenerationStartedSchema,
  QuestionGenerationSchema,
  QuestionListSchema,
  QuestionSchema,
  QuestionSetListSchema,
  QuestionSetSchema,
  QuestionSetTrendSchema,
  QuestionSetVersionDiffSchema,
  QuestionSetVersionListSchema,
  QuestionSetVersionSchema,
  QuestionSetVersionSummarySchema,
  QuestionSetWithQuestionsSchema,
} from "../schemas/index.js";
import { IdParams } from "./params.js";
import { requestSchema } from "../components.js";

const BASE = "/api/v1/question-sets";

/** An import's file travels as a JSON string: escaping may double its size. */
const IMPORT_BODY_BYTES = 2 * QUESTION_LIMITS.importBytes;
const listBodyBytes = (max: number) => Math.max(max, QUESTION_LIMITS.importBytes);

const VersionNumber = z.coerce.number().int().min(1).max(2_147_483_647);

export const ExportQuerySchema = z.object({
  format: z.enum(QUESTION_FORMATS).default("csv").describe("the file format (default csv)"),
  version: VersionNumber.optional().describe("the version's number (default: the latest)"),
});

const VersionParams = IdParams.extend({ number: VersionNumber });

const error = (description: string) => ({ description, schema: ErrorSchema });
const notFound = (what: string) => error(`No such ${what} for this user (another user's id too)`);
const noJobs = error("The server runs without a job queue");
const deleted = { description: "Deleted" };

export const questionSetApi = {
  list: defineRoute({
    method: "get",
    path: BASE,
    tags: ["question-sets"],
    summary: "List your question sets",
    responses: { 200: { description: "Your question sets", schema: QuestionSetListSchema } },
  }),
  create: defineRoute({
    method: "post",
    path: BASE,
    tags: ["question-sets"],
    summary: "Create a question set with its whole question list, in one transaction",
    body: requestSchema("CreateQuestionSet", CreateQuestionSetSchema),
    bodyBytes: listBodyBytes,
    responses: {
      201: { description: "The set with its questions", schema: QuestionSetWithQuestionsSchema },
      400: error("Invalid body, or questions repeating one another (issues name each index)"),
      404: notFound("collection"),
      413: error("Body too large"),
    },
  }),
  import: defineRoute({
    method: "post",
    path: `${BASE}/import`,
    tags: ["question-sets"],
    summary: "Create a question set from a CSV, JSON or JSONL file's text; all or nothing",
    body: requestSchema("ImportQuestionSet", ImportQuestionSetSchema),
    bodyBytes: () => IMPORT_BODY_BYTES,
    responses: {
      201: { description: "The set with its questions", schema: QuestionSetWithQuestionsSchema },
      400: error("Every bad row of the file, in rows[]; nothing was written"),
      404: notFound("collection"),
      413: error("Body too large"),
    },
  }),
  generate: defineRoute({
    method: "post",
    path: `${BASE}/generate`,
    tags: ["question-sets"],
    summary: "Start generating questions from a collection (a job); poll the generation",
    body: requestSchema("GenerateQuestionsRequest", GenerateQuestionsRequestSchema),
    needsJobs: true,
    responses: {
      202: {
        description: "{id, status}: poll GET /api/v1/question-sets/generations/{id}",
        schema: GenerationStartedSchema,
      },
      400: error("Invalid body, a prompt without {document_content}, or an empty collection"),
      404: notFound("collection"),
      503: noJobs,
    },
  }),
  generation: defineRoute({
    method: "get",
    path: `${BASE}/generations/:id`,
    tags: ["question-sets"],
    summary:
      "A question generation job: its progress, then its preview (not saved to any set) or error",
    params: IdParams,
    resource: "question generation",
    responses: {
      200: { description: "The generation", schema: QuestionGenerationSchema },
      404: notFound("generation"),
    },
  }),
  editQuestion: defineRoute({
    method: "put",
    path: `${BASE}/questions/:id`,
    tags: ["question-sets"],
    summary: "Edit one question",
    params: IdParams,
    resource: "question",
    body: requestSchema("UpdateQuestion", UpdateQuestionSchema),
    responses: {
      200: { description: "The question", schema: QuestionSchema },
      400: error("Invalid body"),
      404: notFound("question"),
      409: error("Another question of the set has this text"),
    },
  }),
  deleteQuestion: defineRoute({
    method: "delete",
    path: `${BASE}/questions/:id`,
    tags: ["question-sets"],
    summary: "Delete one question",
    params: IdParams,
    resource: "question",
    responses: { 204: deleted, 404: notFound("question") },
  }),
  get: defineRoute({
    method: "get",
    path: `${BASE}/:id`,
    tags: ["question-sets"],
    summary: "A question set and all its questions",
    params: IdParams,
    resource: "question set",
    responses: {
      200: { description: "The set with its questions", schema: QuestionSetWithQuestionsSchema },
      404: notFound("question set"),
    },
  }),
  export: defineRoute({
    method: "get",
    path: `${BASE}/:id/export`,
    tags: ["question-sets"],
    summary: "Download the set as a file the import reads back unchanged",
    params: IdParams,
    resource: "question set",
    query: ExportQuerySchema,
    responses: {
      200: {
        description: "The file (content-disposition: attachment)",
        content: { type: "text/csv", schema: FileDownloadSchema },
      },
      400: error("Unknown format"),
      404: notFound("question set"),
    },
  }),
  trend: defineRoute({
    method: "get",
    path: `${BASE}/:id/trend`,
    tags: ["question-sets"],
    summary: "Every run made on the set, oldest first: created time, average score, pass rate",
    params: IdParams,
    resource: "question set",
    responses: {
      200: { description: "The runs in time order", schema: QuestionSetTrendSchema },
      404: notFound("question set"),
    },
  }),
  update: defineRoute({
    method: "put",
    path: `${BASE}/:id`,
    tags: ["question-sets"],
    summary: "Update a question set's metadata",
    params: IdParams,
    resource: "question set",
    body: requestSchema("UpdateQuestionSet", UpdateQuestionSetSchema),
    responses: {
      200: { description: "The set", schema: QuestionSetSchema },
      400: error("Invalid body"),
      404: notFound("question set or collection"),
    },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/:id`,
    tags: ["question-sets"],
    summary: "Delete a question set (evaluations keep their own copy of its questions)",
    params: IdParams,
    resource: "question set",
    responses: { 204: deleted, 404: notFound("question set") },
  }),
  append: defineRoute({
    method: "post",
    path: `${BASE}/:id/questions`,
    tags: ["question-sets"],
    summary: "Append questions to a set; all or nothing",
    params: IdParams,
    resource: "question set",
    body: requestSchema("AddQuestions", AddQuestionsSchema),
    bodyBytes: listBodyBytes,
    responses: {
      201: { description: "{items}: the new questions", schema: QuestionListSchema },
      400: error("Invalid body, or questions repeating one another in the list"),
      404: notFound("question set"),
      409: error("Questions already in the set, named in duplicates[]; nothing was added"),
    },
  }),
  changes: defineRoute({
    method: "post",
    path: `${BASE}/:id/changes`,
    tags: ["question-sets"],
    summary:
      "Remove, edit and append questions of a set at once, as one new version; all or nothing",
    params: IdParams,
    resource: "question set",
    body: ChangeQuestionsSchema,
    bodyBytes: listBodyBytes,
    responses: {
      200: { description: "The set with its questions", schema: QuestionSetWithQuestionsSchema },
      400: error("Invalid body, or added questions repeating one another"),
      404: notFound("question set or question"),
      409: error("Two questions of the set would have one text; nothing was changed"),
    },
  }),
  versions: defineRoute({
    method: "get",
    path: `${BASE}/:id/versions`,
    tags: ["question-sets"],
    summary: "The set's versions, newest first: number, who made it, when, and what changed",
    params: IdParams,
    resource: "question set",
    responses: {
      200: { description: "The versions", schema: QuestionSetVersionListSchema },
      404: notFound("question set"),
    },
  }),
  version: defineRoute({
    method: "get",
    path: `${BASE}/:id/versions/:number`,
    tags: ["question-sets"],
    summary: "One version of the set with its questions",
    params: VersionParams,
    resource: "question set version",
    responses: {
      200: { description: "The version", schema: QuestionSetVersionSchema },
      404: notFound("question set or version"),
    },
  }),
  diff: defineRoute({
    method: "get",
    path: `${BASE}/:id/diff`,
    tags: ["question-sets"],
    summary: "Questions added, removed and changed (text, references) from one version to another",
    params: IdParams,
    resource: "question set",
    query: VersionDiffQuerySchema,
    responses: {
      200: { description: "The difference", schema: QuestionSetVersionDiffSchema },
      400: error("from or to missing or not a version number"),
      404: notFound("question set or version"),
    },
  }),
  restore: defineRoute({
    method: "post",
    path: `${BASE}/:id/versions/:number/restore`,
    tags: ["question-sets"],
    summary: "Make an old version's questions the set's questions again, as a new version",
    params: VersionParams,
    resource: "question set version",
    responses: {
      201: { description: "The set's latest version", schema: QuestionSetVersionSummarySchema },
      404: notFound("question set or version"),
    },
  }),
};

function publicVersion<T extends { workspace_id: string }>({ workspace_id: _w, ...version }: T) {
  return version;
}

function withQuestions({ set, questions }: QuestionSetWithQuestions) {
  return { ...publicQuestionSet(set), questions: questions.map(publicQuestion) };
}

/** Seed 003 section 4.1, question sets, plus import, export and generation jobs. */
export function questionSetRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const api = questionSetApi;

  mountRoute(app, deps, api.list, async (c) => {
    const rows = await listQuestionSets(db, c.get("workspace").id);
    return c.json({ items: rows.map(publicQuestionSet) }, 200);
  });

  mountRoute(app, deps, api.create, async (c, { body }) =>
    c.json(withQuestions(await createQuestionSetWithQuestions(db, actorOf(c), body)), 201),
  );

  mountRoute(app, deps, api.import, async (c, { body }) =>
    c.json(withQuestions(await importQuestionSet(db, actorOf(c), body)), 201),
  );

  mountRoute(app, deps, api.generate, async (c, { body }) => {
    const jobs = deps.jobs;
    if (!jobs) throw new Error("unreachable: needsJobs answers 503 first");
    const row = await requestQuestionGeneration({ db, jobs }, c.get("workspace").id, body);
    return c.json({ id: row.id, status: row.status }, 202);
  });

  mountRoute(app, deps, api.generation, async (c, { params }) =>
    c.json(publicGeneration(await getGeneration(db, c.get("workspace").id, params.id)), 200),
  );

  mountRoute(app, deps, api.editQuestion, async (c, { params, body }) =>
    c.json(publicQuestion(await editQuestion(db, actorOf(c), params.id, body)), 200),
  );

  mountRoute(app, deps, api.deleteQuestion, async (c, { params }) => {
    await removeQuestion(db, actorOf(c), params.id);
    return c.body(null, 204);
  });

  mountRoute(app, deps, api.get, async (c, { params }) =>
    c.json(
      withQuestions(await getQuestionSetWithQuestions(db, c.get("workspace").id, params.id)),
      200,
    ),
  );

  mountRoute(app, deps, api.export, async (c, { params, query }) => {
    const file = await exportQuestionSet(
      db,
      c.get("workspace").id,
      params.id,
      query.format,
      query.version,
    );
    return c.body(file.body, 200, {
      "content-type": file.contentType,
      "content-disposition": `attachment; filename="${file.filename}"`,
      "x-question-set-version-id": file.version.id,
    });
  });

  mountRoute(app, deps, api.trend, async (c, { params }) => {
    const points = await questionSetTrend(db, c.get("workspace").id, params.id);
    return c.json(
      {
        items: points.map(({ evaluation: run, pass_rate, scored }) => ({
          evaluation_id: run.id,
          name: run.name,
          status: run.status,
          question_set_version: run.question_set_version,
          gmt_created: run.gmt_created,
          finished_at: run.finished_at,
          total_questions: run.total_questions,
          scored,
          average_score: run.average_score,
          pass_rate,
        })),
      },
      200,
    );
  });

  mountRoute(app, deps, api.update, async (c, { params, body }) =>
    c.json(
      publicQuestionSet(await updateQuestionSetMeta(db, c.get("workspace").id, params.id, body)),
      200,
    ),
  );

  mountRoute(app, deps, api.delete, async (c, { params }) => {
    await removeQuestionSet(db, c.get("workspace").id, params.id);
    await recordAudit(db, {
      ...actorOf(c),
      action: "question_set.delete",
      subjectType: "question_set",
      subjectId: params.id,
    });
    return c.body(null, 204);
  });

  mountRoute(app, deps, api.append, async (c, { params, body }) => {
    const rows = await appendQuestions(db, actorOf(c), params.id, body.questions, body.origin);
    return c.json({ items: rows.map(publicQuestion) }, 201);
  });

  mountRoute(app, deps, api.changes, async (c, { params, body }) =>
    c.json(withQuestions(await changeSetQuestions(db, actorOf(c), params.id, body)), 200),
  );

  mountRoute(app, deps, api.versions, async (c, { params }) => {
    const rows = await questionSetVersions(db, c.get("workspace").id, params.id);
    return c.json({ items: rows.map(publicVersion) }, 200);
  });

  mountRoute(app, deps, api.version, async (c, { params }) =>
    c.json(
      publicVersion(await questionSetVersion(db, c.get("workspace").id, params.id, params.number)),
      200,
    ),
  );

  mountRoute(app, deps, api.diff, async (c, { params, query }) => {
    const diff = await diffQuestionSetVersions(
      db,
      c.get("workspace").id,
      params.id,
      query.from,
      query.to,
    );
    return c.json({ ...diff, from: publicVersion(diff.from), to: publicVersion(diff.to) }, 200);
  });

  mountRoute(app, deps, api.restore, async (c, { params }) => {
    const latest = await restoreQuestionSetVersion(db, actorOf(c), params.id, params.number);
    await recordAudit(db, {
      ...actorOf(c),
      action: "question_set.restore",
      subjectType: "question_set",
      subjectId: params.id,
      detail: { restored: params.number, version: latest.number },
    });
    return c.json(publicVersion(latest), 201);
  });
}
