import type { Context } from "hono";
import { z } from "zod";
import {
  GenerateQuestionsRequestSchema,
  getGeneration,
  QuestionGenerationNotFoundError,
  requestQuestionGeneration,
} from "../../evals/generation/index.js";
import {
  AddQuestionsSchema,
  appendQuestions,
  CreateQuestionSetSchema,
  createQuestionSetWithQuestions,
  editQuestion,
  exportQuestionSet,
  getQuestionSetWithQuestions,
  ImportQuestionSetSchema,
  importQuestionSet,
  QuestionNotFoundError,
  QuestionSetRequestError,
  type QuestionSetWithQuestions,
  removeQuestion,
  removeQuestionSet,
  UpdateQuestionSchema,
  UpdateQuestionSetSchema,
  updateQuestionSetMeta,
} from "../../evals/question-sets/index.js";
import {
  QUESTION_FORMATS,
  QUESTION_LIMITS,
  QuestionGenerationError,
  QuestionImportError,
} from "../../evals/questions/index.js";
import {
  CollectionNotFoundError,
  DuplicateQuestionsError,
  listQuestionSets,
  QuestionSetNotFoundError,
} from "../../store/index.js";
import {
  type App,
  errorJson,
  jobsUnavailable,
  limitBody,
  type RouteDeps,
  readBody,
} from "../http.js";
import { publicGeneration, publicQuestion, publicQuestionSet } from "../rows.js";

const BASE = "/api/v1/question-sets";

/** An import's file travels as a JSON string: escaping may double its size. */
const IMPORT_BODY_BYTES = 2 * QUESTION_LIMITS.importBytes;

export const ExportQuerySchema = z.object({ format: z.enum(QUESTION_FORMATS).default("csv") });

function withQuestions({ set, questions }: QuestionSetWithQuestions) {
  return { ...publicQuestionSet(set), questions: questions.map(publicQuestion) };
}

/** The answer for the errors every question-set route may meet; undefined for the others. */
function knownError(c: Context, error: unknown): Response | undefined {
  if (error instanceof QuestionSetNotFoundError)
    return errorJson(c, 404, "not_found", "No such question set.");
  if (error instanceof QuestionNotFoundError)
    return errorJson(c, 404, "not_found", "No such question.");
  if (error instanceof QuestionGenerationNotFoundError)
    return errorJson(c, 404, "not_found", "No such question generation.");
  if (error instanceof CollectionNotFoundError)
    return errorJson(c, 404, "not_found", `collection_id: no collection ${error.collection}.`);
  if (error instanceof QuestionSetRequestError) {
    return c.json(
      { error: "invalid_questions", message: error.message, issues: error.issues },
      400,
    );
  }
  if (QuestionImportError.isInstance(error)) {
    return c.json(
      {
        error: "invalid_import",
        message: `Nothing was imported: ${error.message}`,
        rows: error.rows,
      },
      400,
    );
  }
  if (QuestionGenerationError.isInstance(error)) {
    return c.json(
      {
        error: "invalid_generation",
        message: error.message,
        issues: [{ path: error.field, message: error.message }],
      },
      400,
    );
  }
  if (error instanceof DuplicateQuestionsError) {
    return c.json(
      {
        error: "duplicate_questions",
        message: `Nothing was added: ${error.message}`,
        duplicates: error.duplicates.map(({ index, question_text }) => ({ index, question_text })),
      },
      409,
    );
  }
  return undefined;
}

/** Runs a route's service call, answering its known errors; others reach app.onError. */
async function answer(c: Context, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    const response = knownError(c, error);
    if (response) return response;
    throw error;
  }
}

/** Seed 003 section 4.1, question sets, plus import, export and generation jobs. */
export function questionSetRoutes(app: App, deps: RouteDeps) {
  const { db, maxBodyBytes } = deps;
  const bodyLimit = limitBody(Math.max(maxBodyBytes, QUESTION_LIMITS.importBytes));

  app.get(BASE, async (c) => {
    const rows = await listQuestionSets(db, c.get("user").id);
    return c.json({ items: rows.map(publicQuestionSet) });
  });

  app.post(BASE, bodyLimit, async (c) => {
    const body = await readBody(c, CreateQuestionSetSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        withQuestions(await createQuestionSetWithQuestions(db, c.get("user").id, body.value)),
        201,
      ),
    );
  });

  app.post(`${BASE}/import`, limitBody(IMPORT_BODY_BYTES), async (c) => {
    const body = await readBody(c, ImportQuestionSetSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(withQuestions(await importQuestionSet(db, c.get("user").id, body.value)), 201),
    );
  });

  app.post(`${BASE}/generate`, limitBody(maxBodyBytes), async (c) => {
    const { jobs } = deps;
    if (!jobs) return jobsUnavailable(c);
    const body = await readBody(c, GenerateQuestionsRequestSchema);
    if (!body.ok) return body.response;
    return answer(c, async () => {
      const row = await requestQuestionGeneration({ db, jobs }, c.get("user").id, body.value);
      return c.json({ id: row.id, status: row.status }, 202);
    });
  });

  app.get(`${BASE}/generations/:id`, (c) =>
    answer(c, async () =>
      c.json(publicGeneration(await getGeneration(db, c.get("user").id, c.req.param("id")))),
    ),
  );

  app.put(`${BASE}/questions/:qid`, limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, UpdateQuestionSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        publicQuestion(await editQuestion(db, c.get("user").id, c.req.param("qid"), body.value)),
      ),
    );
  });

  app.delete(`${BASE}/questions/:qid`, (c) =>
    answer(c, async () => {
      await removeQuestion(db, c.get("user").id, c.req.param("qid"));
      return c.body(null, 204);
    }),
  );

  app.get(`${BASE}/:id`, (c) =>
    answer(c, async () =>
      c.json(
        withQuestions(await getQuestionSetWithQuestions(db, c.get("user").id, c.req.param("id"))),
      ),
    ),
  );

  app.get(`${BASE}/:id/export`, async (c) => {
    const query = ExportQuerySchema.safeParse({ format: c.req.query("format") });
    if (!query.success) {
      return errorJson(c, 400, "invalid_format", "format: expected csv, json or jsonl.");
    }
    return answer(c, async () => {
      const file = await exportQuestionSet(
        db,
        c.get("user").id,
        c.req.param("id"),
        query.data.format,
      );
      return c.body(file.body, 200, {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
      });
    });
  });

  app.put(`${BASE}/:id`, limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, UpdateQuestionSetSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        publicQuestionSet(
          await updateQuestionSetMeta(db, c.get("user").id, c.req.param("id"), body.value),
        ),
      ),
    );
  });

  app.delete(`${BASE}/:id`, (c) =>
    answer(c, async () => {
      await removeQuestionSet(db, c.get("user").id, c.req.param("id"));
      return c.body(null, 204);
    }),
  );

  app.post(`${BASE}/:id/questions`, bodyLimit, async (c) => {
    const body = await readBody(c, AddQuestionsSchema);
    if (!body.ok) return body.response;
    return answer(c, async () => {
      const rows = await appendQuestions(
        db,
        c.get("user").id,
        c.req.param("id"),
        body.value.questions,
      );
      return c.json({ items: rows.map(publicQuestion) }, 201);
    });
  });
}
