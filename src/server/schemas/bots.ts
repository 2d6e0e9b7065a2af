import { z } from "zod";
import { responseSchema } from "../components.js";
import { Id, Time } from "./common.js";

// Registered HTTP bots.

/** A registered HTTP bot as its owner reads it (store/bots.ts BotRow): never the secret. */
export const BotSchema = responseSchema(
  "Bot",
  z.object({
    id: Id,
    name: z.string(),
    url: z.string(),
    secret_header: z.string(),
    has_secret: z.boolean(),
    gmt_created: Time,
  }),
);

export const BotListSchema = responseSchema("BotList", z.object({ items: z.array(BotSchema) }));
