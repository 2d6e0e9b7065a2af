// OpenAPI paths of seed 003's question sets and evaluations (section 4.1). Request bodies refer to
// components built in openapi.ts from the zod schemas the routes validate with.

type Operation = Record<string, unknown>;

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});
const object = (description: string) => ({
  description,
  content: { "application/json": { schema: { type: "object" } } },
});
const body = (schema: string, required = true) => ({
  required,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${schema}` } } },
});
const pathId = (name = "id") => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string", format: "uuid" },
});
const query = (name: string, schema: Record<string, unknown>, description?: string) => ({
  name,
  in: "query",
  schema,
  ...(description ? { description } : {}),
});

const unauthorized = error("Missing or unknown API token");
const notFound = (what: string) => error(`No such ${what} for this user (another user's id too)`);
const noJobs = error("The server runs without a job queue");

export function questionSetPaths(): Record<string, Record<string, Operation>> {
  const sets = "/api/v1/question-sets";
  return {
    [sets]: {
      get: {
        summary: "List your question sets",
        responses: { "200": object("{items}"), "401": unauthorized },
      },
      post: {
        summary: "Create a question set with its whole question list, in one transaction",
        requestBody: body("CreateQuestionSet"),
        responses: {
          "201": object("The set with its questions"),
          "400": error("Invalid body, or questions repeating one another (issues name each index)"),
          "404": notFound("collection"),
          "413": error("Body too large"),
        },
      },
    },
    [`${sets}/import`]: {
      post: {
        summary: "Create a question set from a CSV, JSON or JSONL file's text; all or nothing",
        requestBody: body("ImportQuestionSet"),
        responses: {
          "201": object("The set with its questions"),
          "400": error("Every bad row of the file, in rows[]; nothing was written"),
          "404": notFound("collection"),
          "413": error("Body too large"),
        },
      },
    },
    [`${sets}/generate`]: {
      post: {
        summary: "Start generating questions from a collection (a job); poll the generation",
        requestBody: body("GenerateQuestionsRequest"),
        responses: {
          "202": object("{id, status}: poll GET /api/v1/question-sets/generations/{id}"),
          "400": error("Invalid body, a prompt without {document_content}, or an empty collection"),
          "404": notFound("collection"),
          "503": noJobs,
        },
      },
    },
    [`${sets}/generations/{id}`]: {
      get: {
        summary:
          "A generation's status and progress; when COMPLETED, the preview questions, heuristic, warnings and LLM usage",
        parameters: [pathId()],
        responses: {
          "200": {
            description: "The generation",
            content: {
              "application/json": { schema: { $ref: "#/components/schemas/QuestionGeneration" } },
            },
          },
          "404": notFound("generation"),
        },
      },
    },
    [`${sets}/{id}`]: {
      get: {
        summary: "A question set and all its questions",
        parameters: [pathId()],
        responses: { "200": object("The set with its questions"), "404": notFound("question set") },
      },
      put: {
        summary: "Update a question set's metadata",
        parameters: [pathId()],
        requestBody: body("UpdateQuestionSet"),
        responses: {
          "200": object("The set"),
          "400": error("Invalid body"),
          "404": notFound("question set or collection"),
        },
      },
      delete: {
        summary: "Delete a question set (evaluations keep their own copy of its questions)",
        parameters: [pathId()],
        responses: { "204": { description: "Deleted" }, "404": notFound("question set") },
      },
    },
    [`${sets}/{id}/export`]: {
      get: {
        summary: "Download the set as a file the import reads back unchanged",
        parameters: [
          pathId(),
          query("format", { type: "string", enum: ["csv", "json", "jsonl"], default: "csv" }),
        ],
        responses: {
          "200": {
            description: "The file, as an attachment",
            content: {
              "text/csv": { schema: { type: "string" } },
              "application/json": { schema: { type: "array", items: { type: "object" } } },
              "application/x-ndjson": { schema: { type: "string" } },
            },
          },
          "400": error("Unknown format"),
          "404": notFound("question set"),
        },
      },
    },
    [`${sets}/{id}/questions`]: {
      post: {
        summary: "Append questions to a set; all or nothing",
        parameters: [pathId()],
        requestBody: body("AddQuestions"),
        responses: {
          "201": object("{items}: the new questions"),
          "400": error("Invalid body, or questions repeating one another in the list"),
          "404": notFound("question set"),
          "409": error("Questions already in the set, named in duplicates[]; nothing was added"),
        },
      },
    },
    [`${sets}/questions/{id}`]: {
      put: {
        summary: "Edit one question",
        parameters: [pathId()],
        requestBody: body("UpdateQuestion"),
        responses: {
          "200": object("The question"),
          "400": error("Invalid body"),
          "404": notFound("question"),
          "409": error("Another question of the set has this text"),
        },
      },
      delete: {
        summary: "Delete one question",
        parameters: [pathId()],
        responses: { "204": { description: "Deleted" }, "404": notFound("question") },
      },
    },
  };
}

export function evaluationPaths(): Record<string, Record<string, Operation>> {
  const evals = "/api/v1/evaluations";
  const control = (
    operation: string,
    summary: string,
    needsJobs: boolean,
  ): Record<string, Operation> => ({
    post: {
      summary,
      parameters: [pathId()],
      ...(operation === "retry" ? { requestBody: body("RetryRequest", false) } : {}),
      responses: {
        "200": object("The evaluation"),
        "404": notFound("evaluation"),
        "409": error("The evaluation's status does not allow this; the message says the status"),
        ...(needsJobs ? { "503": noJobs } : {}),
      },
    },
  });
  return {
    [evals]: {
      get: {
        summary: "List your evaluations with their progress, newest first",
        parameters: [
          query("limit", { type: "integer", minimum: 1, maximum: 500 }),
          query("offset", { type: "integer", minimum: 0 }),
        ],
        responses: { "200": object("{items}"), "401": unauthorized },
      },
      post: {
        summary: "Create and start an evaluation (it runs on the workers)",
        requestBody: body("EvaluationRequest"),
        responses: {
          "201": object("The evaluation, PENDING"),
          "400": error("Invalid body (issues name the field)"),
          "404": notFound("question set or collection"),
          "503": noJobs,
        },
      },
    },
    [`${evals}/{id}`]: {
      get: {
        summary: "An evaluation with its progress, summary and first page of results",
        parameters: [pathId()],
        responses: { "200": object("The evaluation"), "404": notFound("evaluation") },
      },
      delete: {
        summary: "Delete an evaluation (a live one is cancelled)",
        parameters: [pathId()],
        responses: { "204": { description: "Deleted" }, "404": notFound("evaluation") },
      },
    },
    [`${evals}/{id}/results`]: {
      get: {
        summary: "A page of an evaluation's results, in question order",
        parameters: [
          pathId(),
          query(
            "status",
            { type: "string" },
            "Comma-separated: PENDING, RUNNING, SCORED, BOT_ERROR, JUDGE_ERROR",
          ),
          query("offset", { type: "integer", minimum: 0 }),
          query("limit", { type: "integer", minimum: 1, maximum: 500 }),
        ],
        responses: {
          "200": object("{items, offset, limit}"),
          "400": error("Bad query"),
          "404": notFound("evaluation"),
        },
      },
    },
    [`${evals}/{id}/events`]: {
      get: {
        summary:
          "Server-Sent Events: `progress` (completed, total, percent, eta_seconds, status), `result` per finished item, then `end`",
        parameters: [pathId()],
        responses: {
          "200": { description: "The stream", content: { "text/event-stream": {} } },
          "404": notFound("evaluation"),
        },
      },
    },
    [`${evals}/{id}/pause`]: control("pause", "Pause a PENDING or RUNNING evaluation", false),
    [`${evals}/{id}/resume`]: control("resume", "Resume a PAUSED evaluation", true),
    [`${evals}/{id}/cancel`]: control("cancel", "Cancel an evaluation for good", false),
    [`${evals}/{id}/retry`]: control(
      "retry",
      "Run a finished evaluation's failed items (scope failed) or all its items (scope all) again",
      true,
    ),
  };
}
