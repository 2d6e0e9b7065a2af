import type { Context } from "hono";
import { z } from "zod";
import {
  adjudicate,
  CRITERION_SCALES,
  createQueue,
  getQueue,
  LabelSubmissionSchema,
  listQueues,
  nextItem,
  type QueueCaller,
  QueueRequestSchema,
  queueAgreement,
  queueItems,
  removeQueue,
  saveLabels,
} from "../../evals/queues/index.js";
import { listMembers, recordAudit } from "../../store/index.js";
import { actorOf } from "../auth.js";
import type { App, Env, RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { ErrorSchema, Time } from "../schemas/index.js";
import { IdParams, pageLimit, pageOffset } from "./params.js";

// Annotation queues over HTTP (issue 28 §2). Thin: parse, call one evals/queues function, answer.
// Reviewing needs `label` (owners, editors, annotators; an annotator only on queues assigned to
// them); the judge's verdict is in the answer to a reviewer's save, never before.

const BASE = "/api/v1/queues";
const TAGS = ["queues"] as const;
const error = (description: string) => ({ description, schema: ErrorSchema });
const notFound = error("No such queue or item in this workspace (another workspace's id too)");

const ItemParams = IdParams.extend({ itemId: IdParams.shape.id });

const CriterionSchema = z.object({
  name: z.string(),
  scale: z.enum([...CRITERION_SCALES, "pairwise"]),
  description: z.string(),
});

const RubricSchema = z.object({
  kind: z.enum(["judge_scale", "pass_fail", "criteria", "pairwise"]),
  judge: z.string().optional(),
  criteria: z.array(CriterionSchema),
});

const Person = z.object({ user_id: z.string(), name: z.string() });

const QueueSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(["run", "arena", "production"]),
  source: z.record(z.string(), z.unknown()).describe("where the items came from, as asked"),
  rubric: RubricSchema,
  reviewers_per_item: z.number().int(),
  reviewers: z.array(Person),
  created_at: Time,
  items: z.number().int(),
  complete: z.number().int().describe("items labelled by as many reviewers as asked"),
});

const QueueSchema = QueueSummarySchema.extend({
  progress: z.object({
    slots: z.number().int().describe("items × reviewers per item"),
    slots_filled: z.number().int(),
    reviewers: z.array(Person.extend({ labelled: z.number().int() })),
  }),
});

const ItemContentSchema = z.object({
  question: z.string(),
  answer: z.string().nullable().optional(),
  ground_truth: z.string().nullable().optional(),
  contexts: z.array(z.string()).optional(),
  answers: z.tuple([z.string(), z.string()]).optional().describe("pairwise: A, then B"),
});

const BlindItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  subject: z.object({
    kind: z.enum(["result", "pair", "answer"]),
    result_id: z.string().nullable(),
    answer_id: z.string().nullable(),
  }),
  content: ItemContentSchema,
});

const JudgeSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .describe(
    "the judge's verdict: a run's judges (raw_score, passed, reasoning), an arena pair's outcome (a, b or tie, as shown), or a production answer's gate",
  );

const NextSchema = z.object({
  rubric: RubricSchema,
  labelled: z.number().int().describe("items this reviewer has labelled in the queue"),
  item: BlindItemSchema.nullable().describe("null when nothing is left for this reviewer"),
  lock_expires_at: Time.nullable(),
});

const LabelValueOut = z.object({
  criterion: z.string(),
  score: z.number().int().nullable(),
  passed: z.boolean().nullable(),
  choice: z.enum(["a", "b", "tie"]).nullable(),
});

const SavedSchema = z.object({
  item_id: z.string(),
  labels: z.array(LabelValueOut),
  reason: z.string().nullable(),
  judge: JudgeSchema,
});

const ItemListSchema = z.object({
  total: z.number().int(),
  items: z.array(
    BlindItemSchema.extend({
      judge: JudgeSchema,
      labels: z.array(LabelValueOut.extend({ reviewer_id: z.string(), reviewer: z.string() })),
      final: z.object({ labels: z.array(LabelValueOut), note: z.string().nullable() }).nullable(),
      final_at: Time.nullable(),
    }),
  ),
});

const AgreementSchema = z.object({
  criteria: z.array(
    z.object({
      criterion: z.string(),
      scale: CriterionSchema.shape.scale,
      metric: z.enum(["nominal", "ordinal", "interval"]),
      items: z.number().int().describe("items labelled by two reviewers or more"),
      alpha: z.number().nullable().describe("Krippendorff's α"),
      alpha_ci: z.tuple([z.number(), z.number()]).nullable().describe("95% bootstrap interval"),
      kappas: z.array(
        z.object({
          a: z.string(),
          b: z.string(),
          n: z.number().int(),
          agreement: z.number().nullable(),
          kappa: z.number().nullable().describe("Cohen's κ (quadratic weights on scores)"),
        }),
      ),
    }),
  ),
  disagreements: z.array(
    z.object({
      item_id: z.string(),
      position: z.number().int(),
      spread: z.number(),
      criterion: z.string(),
      question: z.string(),
      labels: z.array(
        LabelValueOut.omit({ criterion: true }).extend({
          reviewer: z.string(),
          criterion: z.string(),
        }),
      ),
    }),
  ),
  pairs: z
    .array(
      z.object({
        a: z.string(),
        b: z.string(),
        items: z.number().int(),
        agree: z.number().int(),
        share: z.number().nullable(),
      }),
    )
    .nullable()
    .describe(
      "arena queues: per pair of contestants, how often people's majority matched the judge",
    ),
  people_standings: z
    .array(
      z.object({
        contestant: z.string(),
        rating: z.number(),
        wins: z.number().int(),
        losses: z.number().int(),
        ties: z.number().int(),
      }),
    )
    .nullable()
    .describe(
      "arena queues: people as a judge, their majority per item rated by Bradley-Terry as the arena rates its judge (best first)",
    ),
});

const AdjudicatedSchema = BlindItemSchema.extend({
  final: z.object({ labels: z.array(LabelValueOut), note: z.string().nullable() }),
  final_at: Time.nullable(),
  human_labels_written: z
    .number()
    .int()
    .describe("a run's result: the run's human labels written from the final label"),
});

const ItemsQuerySchema = z.object({
  limit: pageLimit({ default: 100, max: 500 }),
  offset: pageOffset(1_000_000),
  order: z.enum(["position", "disagreement"]).optional(),
});

const AgreementQuerySchema = z.object({
  disagreements: z.coerce.number().int().min(0).max(100).optional(),
});

export const queueApi = {
  list: defineRoute({
    method: "get",
    path: BASE,
    tags: TAGS,
    access: "member",
    summary: "The workspace's annotation queues (an annotator sees those assigned to them)",
    responses: {
      200: { description: "Queues", schema: z.object({ items: z.array(QueueSummarySchema) }) },
    },
  }),
  reviewers: defineRoute({
    method: "get",
    path: `${BASE}/reviewers`,
    tags: TAGS,
    access: "write",
    summary: "The members a queue may be assigned to: owners, editors and annotators",
    responses: {
      200: {
        description: "Members who may label",
        schema: z.object({
          items: z.array(
            Person.extend({ role: z.enum(["owner", "editor", "annotator", "viewer"]) }),
          ),
        }),
      },
    },
  }),
  create: defineRoute({
    method: "post",
    path: BASE,
    tags: TAGS,
    summary:
      "Make a queue from a run's results (all, a filter, a seeded sample), an arena's pairs, or production answers",
    body: QueueRequestSchema,
    responses: {
      201: { description: "The queue", schema: QueueSchema },
      400: error("A field at fault, named in issues"),
      404: error("No such run, arena or answer in this workspace"),
      413: error("Body too large"),
      415: error("The body is not application/json"),
    },
  }),
  get: defineRoute({
    method: "get",
    path: `${BASE}/:id`,
    tags: TAGS,
    access: "member",
    summary: "A queue with its progress, overall and per reviewer",
    params: IdParams,
    resource: "queue",
    responses: { 200: { description: "The queue", schema: QueueSchema }, 404: notFound },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/:id`,
    tags: TAGS,
    summary: "Delete a queue and its labels (the run's human labels written by adjudication stay)",
    params: IdParams,
    resource: "queue",
    responses: { 204: { description: "Deleted" }, 404: notFound },
  }),
  next: defineRoute({
    method: "post",
    path: `${BASE}/:id/next`,
    tags: TAGS,
    access: "label",
    summary:
      "Hand the caller their next item, locked for them for 10 minutes: one they have not labelled with a slot free; without the judge's verdict",
    params: IdParams,
    resource: "queue",
    responses: {
      200: { description: "The item, or null when done", schema: NextSchema },
      404: notFound,
    },
  }),
  label: defineRoute({
    method: "put",
    path: `${BASE}/:id/items/:itemId/label`,
    tags: TAGS,
    access: "label",
    summary:
      "Save the caller's label of an item (every criterion; pairwise: a, b or tie as shown); the answer carries the judge's verdict",
    params: ItemParams,
    resource: "queue or item",
    body: LabelSubmissionSchema,
    responses: {
      200: { description: "Saved, with the judge's verdict", schema: SavedSchema },
      400: error("A criterion missing, unknown or off its scale, named in issues"),
      404: notFound,
      409: error("The item's slots are taken by other reviewers"),
      413: error("Body too large"),
      415: error("The body is not application/json"),
    },
  }),
  items: defineRoute({
    method: "get",
    path: `${BASE}/:id/items`,
    tags: TAGS,
    summary:
      "The queue's items with every reviewer's label, the judge's verdict and the final label; order=disagreement lists only the items people disagree on, widest first",
    params: IdParams,
    resource: "queue",
    query: ItemsQuerySchema,
    responses: {
      200: { description: "A page of items", schema: ItemListSchema },
      400: error("Bad query"),
      404: notFound,
    },
  }),
  agreement: defineRoute({
    method: "get",
    path: `${BASE}/:id/agreement`,
    tags: TAGS,
    summary:
      "Agreement between reviewers: Krippendorff's α per criterion with a bootstrap interval, pairwise Cohen's κ, the items they disagree on most; arena queues: people against the judge per pair",
    params: IdParams,
    resource: "queue",
    query: AgreementQuerySchema,
    responses: {
      200: { description: "Agreement", schema: AgreementSchema },
      400: error("Bad query"),
      404: notFound,
    },
  }),
  adjudicate: defineRoute({
    method: "put",
    path: `${BASE}/:id/items/:itemId/final`,
    tags: TAGS,
    summary:
      "Set an item's final label (owner or editor); on a run's result it becomes the run's human label, which calibration uses",
    params: ItemParams,
    resource: "queue or item",
    body: LabelSubmissionSchema,
    responses: {
      200: { description: "The item with its final label", schema: AdjudicatedSchema },
      400: error("A criterion missing, unknown or off its scale, named in issues"),
      404: notFound,
      413: error("Body too large"),
      415: error("The body is not application/json"),
    },
  }),
};

function callerOf(c: Context<Env>): QueueCaller {
  return {
    workspaceId: c.get("workspace").id,
    userId: c.get("user").id,
    role: c.get("workspace").role,
  };
}

export function queueRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;

  mountRoute(app, deps, queueApi.list, async (c) =>
    c.json({ items: await listQueues(db, callerOf(c)) }, 200),
  );

  mountRoute(app, deps, queueApi.reviewers, async (c) => {
    const members = await listMembers(db, c.get("workspace").id);
    return c.json(
      {
        items: members
          .filter((m) => m.role !== "viewer")
          .map((m) => ({ user_id: m.user_id, name: m.name, role: m.role })),
      },
      200,
    );
  });

  mountRoute(app, deps, queueApi.create, async (c, { body }) =>
    c.json(await createQueue(db, callerOf(c), body), 201),
  );

  mountRoute(app, deps, queueApi.get, async (c, { params }) =>
    c.json(await getQueue(db, callerOf(c), params.id), 200),
  );

  mountRoute(app, deps, queueApi.delete, async (c, { params }) => {
    await removeQueue(db, callerOf(c), params.id);
    await recordAudit(db, {
      ...actorOf(c),
      action: "queue.delete",
      subjectType: "queue",
      subjectId: params.id,
    });
    return c.body(null, 204);
  });

  mountRoute(app, deps, queueApi.next, async (c, { params }) =>
    c.json(await nextItem(db, callerOf(c), params.id), 200),
  );

  mountRoute(app, deps, queueApi.label, async (c, { params, body }) =>
    c.json(await saveLabels(db, callerOf(c), params.id, params.itemId, body), 200),
  );

  mountRoute(app, deps, queueApi.items, async (c, { params, query }) =>
    c.json(
      await queueItems(db, callerOf(c), params.id, {
        offset: query.offset ?? 0,
        limit: query.limit ?? 100,
        disagreed: query.order === "disagreement",
      }),
      200,
    ),
  );

  mountRoute(app, deps, queueApi.agreement, async (c, { params, query }) =>
    c.json(
      await queueAgreement(db, callerOf(c), params.id, {
        ...(query.disagreements !== undefined ? { disagreements: query.disagreements } : {}),
      }),
      200,
    ),
  );

  mountRoute(app, deps, queueApi.adjudicate, async (c, { params, body }) => {
    const settled = await adjudicate(
      db,
      { ...callerOf(c), name: c.get("user").name },
      params.id,
      params.itemId,
      body,
    );
    // Who set the final label: relabelling, in the workspace's history.
    await recordAudit(db, {
      ...actorOf(c),
      action: "label.adjudicate",
      subjectType: "queue",
      subjectId: params.id,
      detail: { item_id: params.itemId },
    });
    return c.json(settled, 200);
  });
}
