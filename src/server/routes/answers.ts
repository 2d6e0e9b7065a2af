import { z } from "zod";
import { fieldIssues, parseJsonl } from "../../formats/index.js";
import { GateActionSchema, GateStatusSchema, EvaluationCheckSchema } from "../../gate/index.js";
import {
  type AnswerInput,
  AnswerInputSchema,
  ingestAnswers,
  MAX_ANSWERS_PER_BATCH,
} from "../../production/index.js";
import {
  type AnswerRecordRow,
  getAnswerRecord,
  isUuid,
  listAnswerRecords,
} from "../../store/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { ErrorSchema } from "../schemas.js";
import { IdParams, pageLimit } from "./params.js";

// Production answers (issue 24 §1.2): apps without OpenTelemetry send their answers here, one or
// a batch; every answer is gated as it arrives. A bad item is named and skipped, the rest kept.

const ANSWERS_PAGE = { default: 50, max: 500 } as const;
const GATE_STATUSES = ["pass", "partial", "fail", "skipped"] as const;

export const AnswerBatchSchema = z
  .object({
    answers: z
      .array(z.unknown())
      .max(MAX_ANSWERS_PER_BATCH)
      .optional()
      .describe("answers as JSON objects (each an EvaluatorInput with optional extras)"),
    jsonl: z
      .string()
      .max(20_000_000)
      .optional()
      .describe("or the same as JSON Lines, one answer a line"),
  })
  .strict()
  .refine((body) => (body.answers === undefined) !== (body.jsonl === undefined), {
    message: "send either answers (a JSON array) or jsonl (JSON Lines), not both",
    path: ["answers"],
  });

const ItemErrorSchema = z.object({
  /** 1-based: the line of `jsonl`, or the position in `answers`. */
  item: z.number().int(),
  path: z.string(),
  message: z.string(),
});

export const AnswerBatchResultSchema = z.object({
  accepted: z.number().int().describe("answers stored now"),
  duplicates: z
    .number()
    .int()
    .describe("answers already stored under their conversation and message ids"),
  rejected: z.number().int(),
  answers: z.array(
    z.object({
      item: z.number().int(),
      id: z.uuid(),
      duplicate: z.boolean(),
      gate: z.object({ status: GateStatusSchema, action: GateActionSchema }),
    }),
  ),
  errors: z.array(ItemErrorSchema).describe("every item that was not stored, by item and field"),
});

export const AnswerRecordSchema = z.object({
  id: z.uuid(),
  received_at: z.string(),
  source: z.enum(["api", "client", "otlp", "guard"]),
  conversation_id: z.string(),
  message_id: z.string(),
  session_id: z.string().nullable(),
  trace_id: z.string().nullable(),
  service: z.string().nullable(),
  collection: z.string().nullable(),
  model: z.string().nullable(),
  query: z.string().nullable(),
  answer: z.string(),
  input: z.record(z.string(), z.unknown()).describe("the retrieval hits and citations, for replay"),
  latency_ms: z.number().nullable(),
  prompt_tokens: z.number().nullable(),
  completion_tokens: z.number().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  gate: z.object({
    status: GateStatusSchema,
    action: GateActionSchema,
    rule_version: z.string(),
    checks: z.array(EvaluationCheckSchema),
    scores: z.record(z.string(), z.number()),
  }),
});

export const AnswerRecordListSchema = z.object({
  items: z.array(AnswerRecordSchema),
  next_before: z.string().nullable().describe("pass as `before` for the next page"),
});

const error = (description: string) => ({ description, schema: ErrorSchema });

export const answerApi = {
  ingest: defineRoute({
    method: "post",
    path: "/api/v1/answers",
    tags: ["production"],
    summary: "Record production answers (one or a batch); each is gated as it arrives",
    body: AnswerBatchSchema,
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
      200: { description: "The answer", schema: AnswerRecordSchema },
      404: error("No such answer for this user"),
    },
  }),
};

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
        userId: c.get("user").id,
        source: "api",
        ...(config.gate ? { gate: config.gate } : {}),
      },
    );
    const answers = stored.map((result, i) => ({ item: valid[i]?.item ?? 0, ...result }));
    return c.json({
      accepted: answers.filter((a) => !a.duplicate).length,
      duplicates: answers.filter((a) => a.duplicate).length,
      rejected: new Set(errors.map((e) => e.item)).size,
      answers,
      errors,
    });
  });

  mountRoute(app, deps, answerApi.list, async (c, { query }) => {
    const limit = query.limit ?? ANSWERS_PAGE.default;
    const before = query.before === undefined ? undefined : parseCursor(query.before);
    if (query.before !== undefined && before === undefined) {
      return errorJson(c, 400, "validation_failed", "before: not a cursor this API gave.");
    }
    const rows = await listAnswerRecords(db, c.get("user").id, {
      limit,
      ...(before ? { before } : {}),
      ...(query.gate ? { gate_status: query.gate } : {}),
    });
    const last = rows.at(-1);
    return c.json({
      items: rows.map(answerJson),
      next_before: rows.length === limit && last ? cursorOf(last) : null,
    });
  });

  mountRoute(app, deps, answerApi.get, async (c, { params }) => {
    const row = await getAnswerRecord(db, c.get("user").id, params.id);
    if (!row) return errorJson(c, 404, "not_found", "No such answer.");
    return c.json(answerJson(row));
  });
}
