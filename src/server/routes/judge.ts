import { judgeLine, LLM_JUDGES } from "../../judges/index.js";
import { type App, errorJson, limitBody, type RouteDeps, readBody } from "../http.js";
import { JudgeRequestSchema } from "../schemas.js";

export function judgeRoutes(app: App, { config, clients, maxBodyBytes }: RouteDeps) {
  app.post("/api/v1/judge", limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, JudgeRequestSchema);
    if (!body.ok) return body.response;
    const { judges: kinds, no_cache, ...line } = body.value;
    const client = clients(c.get("user").id).judge;
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
    return c.json({ results });
  });
}
