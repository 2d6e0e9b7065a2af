import type { Context } from "hono";
import { z } from "zod";
import {
  adjudicate,
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
import {
  AdjudicatedItemSchema,
  ErrorSchema,
  QueueAgreementSchema,
  QueueItemListSchema,
  QueueLabelSavedSchema,
  QueueListSchema,
  QueueNextSchema,
  QueueReviewerListSchema,
  QueueSchema,
} from "../schemas/index.js";
import { IdParams, pageLimit, pageOffset } from "./params.js";

// Annotation queues over HTTP (issue 28 §2). Thin: parse, call one evals/queues function, answer.
// Reviewing needs `label` (owners, editors, annotators; an annotator only on queues assigned to
// them); the judge's verdict is in the answer to a reviewer's save, never before.

const BASE = "/api/v1/queues";
const TAGS = ["queues"] as const;
const error = (description: string) => ({ description, schema: ErrorSchema });
const notFound = error("No such queue or item in this workspace (another workspace's id too)");

const ItemParams = IdParams.extend({ itemId: IdParams.shape.id });

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
      200: { description: "Queues", schema: QueueListSchema },
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
        schema: QueueReviewerListSchema,
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
      200: { description: "The item, or null when done", schema: QueueNextSchema },
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
      200: { description: "Saved, with the judge's verdict", schema: QueueLabelSavedSchema },
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
      200: { description: "A page of items", schema: QueueItemListSchema },
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
      200: { description: "Agreement", schema: QueueAgreementSchema },
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
      200: { description: "The item with its final label", schema: AdjudicatedItemSchema },
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
