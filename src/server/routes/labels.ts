import type { Context } from "hono";
import { z } from "zod";
import {
  CalibrationNotFoundError,
  CalibrationRequestError,
  calibrateEvaluation,
  importLabels,
  LabelImportError,
  LabelInputSchema,
  LabelScaleSchema,
  nextToLabel,
  putLabel,
  removeLabel,
  resultLabels,
  runLabels,
} from "../../evals/calibration/index.js";
import { type App, type Env, errorJson, limitBody, type RouteDeps, readBody } from "../http.js";

// Human labels of evaluation results and a run's calibration report (seed 002 sections 4 and 5.3).
// Thin: parse, call one function of evals/calibration, answer.

const BASE = "/api/v1/evaluations/:id";

export const ImportLabelsSchema = z.object({
  /** The label file's text: one JSON object per line, as `ragjudge label import` reads. */
  content: z.string().max(20_000_000),
  judge: z.string().optional(),
  scale: LabelScaleSchema.exclude(["pass_fail"]).optional(),
});

export const CalibrationQuerySchema = z.object({
  judge: z.string().optional(),
  target: z.coerce.number().min(-1).max(1).optional(),
  kappa: z.coerce.number().min(-1).max(1).optional(),
  disagreements: z.coerce.number().int().min(1).max(1000).optional(),
});

export const NextLabelQuerySchema = z.object({
  scale: LabelScaleSchema,
  /** Skip results up to this position (the one just shown). */
  after: z.coerce.number().int().min(-1).optional(),
});

const ScaleQuerySchema = z.object({ scale: LabelScaleSchema.optional() });

async function answer(c: Context, work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CalibrationNotFoundError) {
      return errorJson(c, 404, "not_found", `No such ${error.what}: ${error.id}.`);
    }
    if (error instanceof CalibrationRequestError) {
      return c.json(
        {
          error: "invalid_request",
          message: error.message,
          issues: [{ path: error.field, message: error.message.slice(error.field.length + 2) }],
        },
        400,
      );
    }
    if (error instanceof LabelImportError) {
      return c.json(
        { error: "invalid_labels", message: "Nothing was imported.", lines: error.issues },
        400,
      );
    }
    throw error;
  }
}

function query<S extends z.ZodType>(c: Context, schema: S) {
  const parsed = schema.safeParse(c.req.query());
  if (parsed.success) return { ok: true as const, value: parsed.data as z.infer<S> };
  const issue = parsed.error.issues[0];
  return {
    ok: false as const,
    response: errorJson(c, 400, "invalid_query", `${issue?.path.join(".")}: ${issue?.message}`),
  };
}

async function* textSource(text: string): AsyncGenerator<string> {
  yield text;
}

function scaleParam(c: Context) {
  return LabelScaleSchema.safeParse(c.req.param("scale"));
}

export function labelRoutes(app: App, deps: RouteDeps) {
  const { db, maxBodyBytes } = deps;
  const labeller = (c: Context<Env>) => {
    const { id, name } = c.get("user");
    return { id, name };
  };

  app.get(`${BASE}/labels`, (c) => {
    const q = query(c, ScaleQuerySchema);
    if (!q.ok) return q.response;
    return answer(c, async () =>
      c.json({ items: await runLabels(db, c.get("user").id, c.req.param("id"), q.value.scale) }),
    );
  });

  app.get(`${BASE}/labels/next`, (c) => {
    const q = query(c, NextLabelQuerySchema);
    if (!q.ok) return q.response;
    return answer(c, async () =>
      c.json(
        await nextToLabel(db, c.get("user").id, c.req.param("id"), q.value.scale, q.value.after),
      ),
    );
  });

  app.post(`${BASE}/labels/import`, limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, ImportLabelsSchema);
    if (!body.ok) return body.response;
    const { content, ...options } = body.value;
    return answer(c, async () =>
      c.json(
        await importLabels(db, labeller(c), c.req.param("id"), textSource(content), options),
        201,
      ),
    );
  });

  app.get(`${BASE}/results/:resultId/labels`, (c) =>
    answer(c, async () =>
      c.json({
        items: await resultLabels(db, c.get("user").id, c.req.param("id"), c.req.param("resultId")),
      }),
    ),
  );

  app.put(`${BASE}/results/:resultId/labels/:scale`, limitBody(maxBodyBytes), async (c) => {
    const scale = scaleParam(c);
    if (!scale.success) {
      return errorJson(
        c,
        404,
        "not_found",
        `No such scale: ${c.req.param("scale")}; use 1-10, 1-5 or pass_fail.`,
      );
    }
    const body = await readBody(c, LabelInputSchema);
    if (!body.ok) return body.response;
    return answer(c, async () =>
      c.json(
        await putLabel(
          db,
          labeller(c),
          c.req.param("id"),
          c.req.param("resultId"),
          scale.data,
          body.value,
        ),
      ),
    );
  });

  app.delete(`${BASE}/results/:resultId/labels/:scale`, async (c) => {
    const scale = scaleParam(c);
    if (!scale.success) {
      return errorJson(c, 404, "not_found", `No such scale: ${c.req.param("scale")}.`);
    }
    return answer(c, async () => {
      await removeLabel(
        db,
        c.get("user").id,
        c.req.param("id"),
        c.req.param("resultId"),
        scale.data,
      );
      return c.body(null, 204);
    });
  });

  app.get(`${BASE}/calibration`, (c) => {
    const q = query(c, CalibrationQuerySchema);
    if (!q.ok) return q.response;
    const { judge, target, kappa, disagreements } = q.value;
    return answer(c, async () =>
      c.json(
        await calibrateEvaluation(db, c.get("user").id, c.req.param("id"), {
          ...(judge !== undefined ? { judge } : {}),
          ...(target !== undefined ? { target } : {}),
          ...(kappa !== undefined ? { kappaMin: kappa } : {}),
          ...(disagreements !== undefined ? { disagreements } : {}),
        }),
      ),
    );
  });
}
