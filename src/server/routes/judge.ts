import {
  type JudgeKind,
  judgeLine,
  type JudgeName,
  type JudgeResult,
  LLM_JUDGES,
} from "../../judges/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { ErrorSchema, JudgeRequestSchema, JudgeResponseSchema } from "../schemas/index.js";
import { requestSchema } from "../components.js";

export const judgeApi = {
  judge: defineRoute({
    method: "post",
    path: "/api/v1/judge",
    tags: ["judges"],
    summary: "Judge one answer with LLM judges (review, rubric, reference) or the offline judge",
    body: requestSchema("JudgeRequest", JudgeRequestSchema),
    responses: {
      200: {
        description: "One result per judge, keyed by judge name, in the common JudgeResult shape",
        schema: JudgeResponseSchema,
      },
      400: { description: "Invalid JSON, or a field that fails validation", schema: ErrorSchema },
      409: {
        description: "An LLM judge was asked for but no judge LLM is configured",
        schema: ErrorSchema,
      },
      413: { description: "Body too large", schema: ErrorSchema },
    },
  }),
};

export function judgeRoutes(app: App, deps: RouteDeps) {
  const { config, clients } = deps;
  mountRoute(app, deps, judgeApi.judge, async (c, { body }) => {
    const { judges: kinds, no_cache, ...line } = body;
    const client = clients(c.get("workspace").id).judge;
    if (!client && kinds.some((kind) => LLM_JUDGES.includes(kind))) {
      return errorJson(
        c,
        409,
        "llm_not_configured",
        'No judge LLM is configured on this server; ask for judges: ["offline"].',
      );
    }
    const results = await judgeLine(line, kinds, {
      config: config.judges,
      noCache: no_cache,
      signal: c.req.raw.signal,
      ...(client ? { client } : {}),
    });
    // A judge's verdict is its reply as an object (judges/result.ts); the type leaves it open.
    const shown = results as Partial<
      Record<JudgeKind, JudgeResult<JudgeName, Record<string, unknown>>>
    >;
    return c.json({ results: shown }, 200);
  });
}
