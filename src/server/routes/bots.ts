import { RegisterBotSchema, registerBot } from "../../evals/bots/index.js";
import { deleteBot, getBot, listBots } from "../../store/index.js";
import { type App, errorJson, type RouteDeps } from "../http.js";
import { defineRoute, mountRoute } from "../route.js";
import { BotListSchema, BotSchema, ErrorSchema } from "../schemas/index.js";
import { IdParams } from "./params.js";
import { requestSchema } from "../components.js";

const BASE = "/api/v1/bots";
const error = (description: string) => ({ description, schema: ErrorSchema });
const noBot = error("No such bot for this user (another user's id too)");

export const botApi = {
  list: defineRoute({
    method: "get",
    path: BASE,
    tags: ["bots"],
    summary: "List your registered HTTP bots (never their secrets)",
    responses: { 200: { description: "Your bots", schema: BotListSchema } },
  }),
  register: defineRoute({
    method: "post",
    path: BASE,
    tags: ["bots"],
    summary: "Register an HTTP bot with the secret sent to its URL only",
    body: requestSchema("RegisterBot", RegisterBotSchema),
    responses: {
      201: { description: "The bot, with `has_secret` instead of the secret", schema: BotSchema },
      400: error(
        "An invalid field, a URL the bot network policy refuses, or a secret this server cannot store encrypted (no RAGJUDGE_SECRET_KEY on a server with several users)",
      ),
      409: error("You already have a bot of that name"),
      415: error("The body is not application/json"),
    },
  }),
  get: defineRoute({
    method: "get",
    path: `${BASE}/:id`,
    tags: ["bots"],
    summary: "Read one of your bots (another user's id is 404)",
    params: IdParams,
    resource: "bot",
    responses: { 200: { description: "The bot", schema: BotSchema }, 404: noBot },
  }),
  delete: defineRoute({
    method: "delete",
    path: `${BASE}/:id`,
    tags: ["bots"],
    summary: "Delete one of your bots; runs that name it fail at their probe",
    params: IdParams,
    resource: "bot",
    responses: { 204: { description: "Deleted" }, 404: noBot },
  }),
};

/** A user's HTTP bots (issue 12): registered with a secret that no response ever shows. */
export function botRoutes(app: App, deps: RouteDeps) {
  const { db } = deps;
  const notFound = (c: Parameters<typeof errorJson>[0], id: string) =>
    errorJson(c, 404, "not_found", `No such bot: ${id}.`);

  mountRoute(app, deps, botApi.list, async (c) =>
    c.json({ items: await listBots(db, c.get("workspace").id) }, 200),
  );

  mountRoute(app, deps, botApi.register, async (c, { body }) =>
    c.json(
      await registerBot(db, c.get("workspace").id, body, deps.config.bots, deps.secretKey),
      201,
    ),
  );

  mountRoute(app, deps, botApi.get, async (c, { params }) => {
    const bot = await getBot(db, c.get("workspace").id, params.id);
    return bot ? c.json(bot, 200) : notFound(c, params.id);
  });

  mountRoute(app, deps, botApi.delete, async (c, { params }) => {
    if (!(await deleteBot(db, c.get("workspace").id, params.id))) return notFound(c, params.id);
    return c.body(null, 204);
  });
}
