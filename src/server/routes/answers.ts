import { z } from "zod";
import { fieldIssues, parseJsonl } from "../../formats/index.js";
import type { EvaluationCheckSchema } from "../../gate/index.js";
import {
  type AnswerInput,
  AnswerInputSchema,
  ingestAnswers,
  MAX_ANSWERS_PER_BATCH,
  addAnswerFeedback,
} from "../../production/index.js";
import {
  type AnswerFeedbackRow,
  type AnswerRecordRow,
  findAnswerRecordByKey,
  getAnswerRecord,
  isUuid,
  listAnswerFeedback,
  listAnswerJudgments,
  listAnswerRecords,
  type MonitorJudgmentRow,
  summarizeAnswerFeedback,
} from "../../store/index.js";
import { errorLogSummary } from "../error-log.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import {
  AnswerBatchResultSchema,
  AnswerBatchSchema,
  AnswerRecordListSchema,
  AnswerWithFeedbackSchema,
  ErrorSchema,
  FeedbackInputSchema,
  FeedbackSchema,
  type ItemErrorSchema,
  KeyedFeedbackInputSchema,
  type MonitorJudgeResultSchema,
  type SpanSummarySchema,
} from "../schemas/index.js";
import { IdParams, pageLimit } from "./params.js";
import { requestSchema } from "../components.js";

// Production answers (issue 24 §1.2): apps without OpenTelemetry send their answers here, one or
// a batch; every answer is gated as it arrives. A bad item is named and skipped, the rest kept.

const ANSWERS_PAGE = { default: 50, max: 500 } as const;
const GATE_STATUSES = ["pass", "partial", "fail", "skipped"] as const;

const error = (description: string) => ({ description, schema: ErrorSchema });

export const answerApi = {
  ingest: defineRoute({
    method: "post",
    path: "/api/v1/answers",
    tags: ["production"],
    summary: "Record production answers (one or a batch); each is gated as it arrives",
    body: requestSchema("AnswerBatch", AnswerBatchSchema),
    responses: {
      200: {
        description: "What was stored, and every item that was not",
        schema: AnswerBatchResultSchema,
      },
      400: error("The body is malformed, or no item is valid (each named in issues[])"),
      413: error("Body too large"),
    },
  }),
  list: defineRoute({
    method: "get",
    path: "/api/v1/answers",
    tags: ["production"],
    summary: "Your production answers, newest first",
    query: z.object({
      limit: pageLimit(ANSWERS_PAGE),
      before: z.string().max(100).optional().describe("the cursor from the previous page"),
      gate: z
        .string()
        .max(100)
        .optional()
        .describe(`comma-separated gate verdicts: ${GATE_STATUSES.join(", ")}`)
        .transform((value, ctx) => {
          if (!value) return undefined;
          const items = value.split(",").map((s) => s.trim().toLowerCase());
          const unknown = items.filter((s) => !(GATE_STATUSES as readonly string[]).includes(s));
          if (unknown.length > 0) {
            ctx.addIssue({
              code: "custom",
              message: `unknown gate verdict ${unknown.join(", ")}; expected ${GATE_STATUSES.join(", ")}`,
            });
            return z.NEVER;
          }
          return items as (typeof GATE_STATUSES)[number][];
        }),
      service: z.string().max(200).optional().describe("only this service"),
      model: z.string().max(200).optional().describe("only this model"),
      from: z.iso.datetime({ offset: true }).optional().describe("received at or after (ISO time)"),
      to: z.iso.datetime({ offset: true }).optional().describe("received before (ISO time)"),
      feedback: z
        .enum(["any", "none"])
        .optional()
        .describe("any: only answers with feedback; none: only answers without"),
    }),
    responses: {
      200: { description: "A page of answers", schema: AnswerRecordListSchema },
      400: error("A query parameter out of range"),
    },
  }),
  get: defineRoute({
    method: "get",
    path: "/api/v1/answers/:id",
    tags: ["production"],
    summary: "One production answer with its gate verdict (another user's id is 404)",
    params: IdParams,
    resource: "answer",
    responses: {
      200: { description: "The answer and its feedback", schema: AnswerWithFeedbackSchema },
      404: error("No such answer for this user"),
    },
  }),
  feedback: defineRoute({
    method: "post",
    path: "/api/v1/answers/:id/feedback",
    tags: ["production"],
    summary:
      "Add a person's feedback on an answer: a thumb, a score, a comment (an ingest key may)",
    params: IdParams,
    resource: "answer",
    body: FeedbackInputSchema,
    responses: {
      201: { description: "The feedback stored", schema: FeedbackSchema },
      400: error("A field that fails validation (named in issues[].path)"),
      404: error("No such answer for this user"),
    },
  }),
  feedbackByKey: defineRoute({
    method: "post",
    path: "/api/v1/answers/feedback",
    tags: ["production"],
    summary: "Add feedback on an answer named by its conversation_id and message_id",
    body: KeyedFeedbackInputSchema,
    responses: {
      201: { description: "The feedback stored", schema: FeedbackSchema },
      400: error("A field that fails validation (named in issues[].path)"),
      404: error("No answer with these ids for this user"),
    },
  }),
};

function feedbackJson(row: AnswerFeedbackRow) {
  return {
    id: row.id,
    answer_id: row.answer_id,
    thumb: row.thumb,
    score: row.score,
    comment: row.comment,
    created_at: row.created_at.toISOString(),
  };
}

function judgmentJson(row: MonitorJudgmentRow & { monitor_name: string }) {
  return {
    monitor_id: row.monitor_id,
    monitor_name: row.monitor_name,
    status: row.status,
    skip_reason: row.skip_reason,
    judged_at: row.judged_at?.toISOString() ?? null,
    results: (row.results ?? {}) as Record<string, z.infer<typeof MonitorJudgeResultSchema>>,
  };
}

/** Stores a feedback, then lets the monitors that wait for feedback take the answer up. */
function storeAnswerFeedback(
  deps: Pick<RouteDeps, "db" | "production">,
  workspaceId: string,
  answer: AnswerRecordRow,
  body: z.infer<typeof FeedbackInputSchema>,
): Promise<AnswerFeedbackRow> {
  return addAnswerFeedback(
    {
      db: deps.db,
      breakdownKeys: deps.production.breakdownKeys,
      monitors: deps.production.monitors,
      onMonitorError: (error) =>
        console.error(`[ragjudge] monitors could not take up an answer: ${errorLogSummary(error)}`),
    },
    workspaceId,
    { ...answer, metadata: answer.metadata as Record<string, unknown> },
    body,
  );
}

type ItemError = z.infer<typeof ItemErrorSchema>;

async function* textSource(text: string): AsyncGenerator<string> {
  yield text;
}

/** The valid answers of a batch, each with its 1-based item number, and every bad item named. */
async function readBatch(
  body: z.infer<typeof AnswerBatchSchema>,
): Promise<{ valid: { item: number; answer: AnswerInput }[]; errors: ItemError[] }> {
  const valid: { item: number; answer: AnswerInput }[] = [];
  const errors: ItemError[] = [];
  if (body.answers) {
    body.answers.forEach((value, i) => {
      const parsed = AnswerInputSchema.safeParse(value);
      if (parsed.success) valid.push({ item: i + 1, answer: parsed.data });
      else for (const issue of fieldIssues(parsed.error)) errors.push({ item: i + 1, ...issue });
    });
    return { valid, errors };
  }
  for await (const line of parseJsonl(textSource(body.jsonl ?? ""), AnswerInputSchema)) {
    if (line.ok) valid.push({ item: line.line, answer: line.value });
    else errors.push({ item: line.line, path: "(line)", message: line.error });
  }
  if (valid.length + errors.length > MAX_ANSWERS_PER_BATCH) {
    return {
      valid: [],
      errors: [
        {
          item: MAX_ANSWERS_PER_BATCH + 1,
          path: "jsonl",
          message: `at most ${MAX_ANSWERS_PER_BATCH} answers a request`,
        },
      ],
    };
  }
  return { valid, errors };
}

function answerJson(row: AnswerRecordRow) {
  return {
    id: row.id,
    received_at: row.received_at.toISOString(),
    source: row.source,
    conversation_id: row.conversation_id,
    message_id: row.message_id,
    session_id: row.session_id,
    trace_id: row.trace_id,
    service: row.service,
    collection: row.collection,
    model: row.model,
    query: row.query,
    answer: row.answer,
    input: row.input as Record<string, unknown>,
    latency_ms: row.latency_ms,
    prompt_tokens: row.prompt_tokens,
    completion_tokens: row.completion_tokens,
    metadata: row.metadata as Record<string, unknown>,
    gate: {
      status: row.gate_status,
      action: row.gate_action,
      rule_version: row.rule_version,
      checks: row.checks as z.infer<typeof EvaluationCheckSchema>[],
      scores: row.scores as Record<string, number>,
    },
  };
}

/** A page cursor: the last answer's time and id. */
function cursorOf(row: AnswerRecordRow): string {
  return `${row.received_at.toISOString()}_${row.id}`;
}

function parseCursor(cursor: string): { received_at: Date; id: string } | undefined {
  const [time, id] = cursor.split("_");
  const at = new Date(time ?? "");
  if (Number.isNaN(at.getTime()) || !id || !isUuid(id)) return undefined;
  return { received_at: at, id };
}

export function answerRoutes(app: App, deps: RouteDeps) {
  const { db, config } = deps;
  mountRoute(app, deps, answerApi.ingest, async (c, { body }) => {
    const { valid, errors } = await readBatch(body);
    if (valid.length === 0) {
      return c.json(
        {
          error: "validation_failed",
          message: errors.length > 0 ? "No answer in the request is valid." : "The batch is empty.",
          issues: errors.map((e) => ({ path: `item ${e.item}: ${e.path}`, message: e.message })),
        },
        400,
      );
    }
    const stored = await ingestAnswers(
      valid.map((v) => v.answer),
      {
        db,
        workspaceId: c.get("workspace").id,
        source: "api",
        ...(config.gate ? { gate: config.gate } : {}),
        breakdownKeys: deps.production.breakdownKeys,
        monitors: deps.production.monitors,
        onMonitorError: (error) =>
          console.error(`[ragjudge] monitors could not take up answers: ${errorLogSummary(error)}`),
      },
    );
    const answers = stored.map((result, i) => ({ item: valid[i]?.item ?? 0, ...result }));
    return c.json(
      {
        accepted: answers.filter((a) => !a.duplicate).length,
        duplicates: answers.filter((a) => a.duplicate).length,
        rejected: new Set(errors.map((e) => e.item)).size,
        answers,
        errors,
      },
      200,
    );
  });

  mountRoute(app, deps, answerApi.list, async (c, { query }) => {
    const limit = query.limit ?? ANSWERS_PAGE.default;
    const before = query.before === undefined ? undefined : parseCursor(query.before);
    if (query.before !== undefined && before === undefined) {
      return errorJson(c, 400, "validation_failed", "before: not a cursor this API gave.");
    }
    const workspaceId = c.get("workspace").id;
    const rows = await listAnswerRecords(db, workspaceId, {
      limit,
      ...(before ? { before } : {}),
      ...(query.gate ? { gate_status: query.gate } : {}),
      ...(query.service !== undefined ? { service: query.service } : {}),
      ...(query.model !== undefined ? { model: query.model } : {}),
      ...(query.from ? { from: new Date(query.from) } : {}),
      ...(query.to ? { to: new Date(query.to) } : {}),
      ...(query.feedback ? { has_feedback: query.feedback === "any" } : {}),
    });
    const summaries = await summarizeAnswerFeedback(
      db,
      workspaceId,
      rows.map((row) => row.id),
    );
    const last = rows.at(-1);
    return c.json(
      {
        items: rows.map((row) => ({
          ...answerJson(row),
          feedback: summaries.get(row.id) ?? { count: 0, up: 0, down: 0 },
        })),
        next_before: rows.length === limit && last ? cursorOf(last) : null,
      },
      200,
    );
  });

  mountRoute(app, deps, answerApi.get, async (c, { params }) => {
    const workspaceId = c.get("workspace").id;
    const row = await getAnswerRecord(db, workspaceId, params.id);
    if (!row) return errorJson(c, 404, "not_found", "No such answer.");
    const [feedback, judgments] = await Promise.all([
      listAnswerFeedback(db, workspaceId, row.id),
      listAnswerJudgments(db, workspaceId, row.id),
    ]);
    return c.json(
      {
        ...answerJson(row),
        feedback: feedback.map(feedbackJson),
        judgments: judgments.map(judgmentJson),
        spans: (row.spans as z.infer<typeof SpanSummarySchema>[] | null) ?? null,
      },
      200,
    );
  });

  const storeFeedback = (
    workspaceId: string,
    answer: AnswerRecordRow,
    body: z.infer<typeof FeedbackInputSchema>,
  ) => storeAnswerFeedback(deps, workspaceId, answer, body);

  mountRoute(app, deps, answerApi.feedbackByKey, async (c, { body }) => {
    const workspaceId = c.get("workspace").id;
    const answer = await findAnswerRecordByKey(
      db,
      workspaceId,
      body.conversation_id,
      body.message_id,
    );
    if (!answer) {
      return errorJson(c, 404, "not_found", "No answer with this conversation_id and message_id.");
    }
    return c.json(feedbackJson(await storeFeedback(workspaceId, answer, body)), 201);
  });

  mountRoute(app, deps, answerApi.feedback, async (c, { params, body }) => {
    const workspaceId = c.get("workspace").id;
    const answer = await getAnswerRecord(db, workspaceId, params.id);
    if (!answer) return errorJson(c, 404, "not_found", "No such answer.");
    return c.json(feedbackJson(await storeFeedback(workspaceId, answer, body)), 201);
  });
}
