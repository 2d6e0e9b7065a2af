import { BotRegistrationError, RegisterBotSchema, registerBot } from "../../evals/bots/index.js";
import { BotNameTakenError, deleteBot, getBot, listBots } from "../../store/index.js";
import { type App, errorJson, limitBody, type RouteDeps, readBody } from "../http.js";

const BASE = "/api/v1/bots";

/** A user's HTTP bots (issue 12): registered with a secret that no response ever shows. */
export function botRoutes(app: App, deps: RouteDeps) {
  const { db, maxBodyBytes } = deps;

  app.post(BASE, limitBody(maxBodyBytes), async (c) => {
    const body = await readBody(c, RegisterBotSchema);
    if (!body.ok) return body.response;
    try {
      return c.json(await registerBot(db, c.get("user").id, body.value, deps.config.bots), 201);
    } catch (error) {
      if (error instanceof BotRegistrationError) {
        return c.json(
          {
            error: "bot_not_allowed",
            message: error.message,
            issues: [{ path: error.field, message: error.message }],
          },
          400,
        );
      }
      if (error instanceof BotNameTakenError) {
        return errorJson(c, 409, "name_taken", error.message);
      }
      throw error;
    }
  });

  app.get(BASE, async (c) => c.json({ items: await listBots(db, c.get("user").id) }));

  app.get(`${BASE}/:id`, async (c) => {
    const bot = await getBot(db, c.get("user").id, c.req.param("id"));
    return bot ? c.json(bot) : errorJson(c, 404, "not_found", `No such bot: ${c.req.param("id")}.`);
  });

  app.delete(`${BASE}/:id`, async (c) => {
    const deleted = await deleteBot(db, c.get("user").id, c.req.param("id"));
    if (!deleted) return errorJson(c, 404, "not_found", `No such bot: ${c.req.param("id")}.`);
    return c.body(null, 204);
  });
}
