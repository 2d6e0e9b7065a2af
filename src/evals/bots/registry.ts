// The HTTP bots a user registers (issue 12): a URL and the secret sent to that URL only. Runs
// started through the API reach external bots by a registered bot's id (or a plain URL without
// credentials); the operator's RAGJUDGE_BOT_TOKEN is never sent for them.

import { z } from "zod";
import { type BotRow, createBot, type Db } from "../../store/index.js";
import {
  type BotNetworkConfig,
  BotNetworkPolicyError,
  checkBotUrl,
  restrictedBotNetwork,
} from "./network-policy.js";

/** An http(s) URL without user:password (URLs are stored and shown; secrets are not). */
export const BotUrlSchema = z
  .url({ protocol: /^https?$/, error: "an http(s) URL" })
  .refine((url) => !new URL(url).username && !new URL(url).password, {
    error:
      "no credentials in the URL; register the bot with its secret (POST /api/v1/bots), or set RAGJUDGE_BOT_TOKEN for the CLI",
  });

/** Headers the transport sets itself; a secret in one of them would break the request. */
const RESERVED_HEADERS = new Set([
  "host",
  "content-type",
  "content-length",
  "transfer-encoding",
  "connection",
  "accept-encoding",
]);

export const RegisterBotSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    url: BotUrlSchema,
    /** Sent with every question to this bot's URL, and nowhere else; never shown again. */
    secret: z.string().min(1).max(4096).optional(),
    /** `authorization` (default) sends `Bearer <secret>`; any other header sends the secret as is. */
    secret_header: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9-]{1,100}$/, { error: "a header name (letters, digits, dashes)" })
      .refine((name) => !RESERVED_HEADERS.has(name), { error: "a header ragjudge does not set" })
      .default("authorization"),
  })
  .strict();
export type RegisterBotInput = z.infer<typeof RegisterBotSchema>;

/** The bot's URL is refused by the network policy: HTTP 400 naming `url`. */
export class BotRegistrationError extends Error {
  override readonly name = "BotRegistrationError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Registers a bot for the user. Its URL must pass the operator's network policy now (and is
 * checked again at every connection). The returned row never holds the secret.
 */
export async function registerBot(
  db: Db,
  userId: string,
  input: RegisterBotInput,
  network: Partial<BotNetworkConfig>,
): Promise<BotRow> {
  try {
    await checkBotUrl(new URL(input.url), restrictedBotNetwork(network));
  } catch (error) {
    if (error instanceof BotNetworkPolicyError)
      throw new BotRegistrationError("url", error.message);
    throw error;
  }
  return createBot(db, userId, {
    name: input.name,
    url: input.url,
    secret_header: input.secret_header,
    secret: input.secret ?? null,
  });
}
