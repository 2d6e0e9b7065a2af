// The HTTP bots a user registers (issue 12): a URL and the secret sent to that URL only. Runs
// started through the API reach external bots by a registered bot's id (or a plain URL without
// credentials); the operator's RAGJUDGE_BOT_TOKEN is never sent for them.

import { z } from "zod";
import {
  type BotRow,
  createBot,
  type Db,
  type SecretKey,
  SecretKeyRequiredError,
} from "../../store/index.js";
import {
  type BotNetworkConfig,
  BotNetworkPolicyError,
  checkBotUrl,
  restrictedBotNetwork,
} from "./network-policy.js";

/**
 * An http(s) URL without user:password (URLs are stored and shown; secrets are not). `abort`
 * stops at a text that is no URL, so the credentials check only ever parses a URL that parses.
 */
export const BotUrlSchema = z
  .url({ protocol: /^https?$/, error: "an http(s) URL", abort: true })
  .refine((url) => !new URL(url).username && !new URL(url).password, {
    error:
      "no credentials in the URL; register the bot with its secret (POST /api/v1/bots), or set RAGJUDGE_BOT_TOKEN for the CLI",
  });

/**
 * Why a secret cannot go in an HTTP header as it is, or undefined. A CR or LF would end the header
 * (node:http refuses to send it), a character past U+00FF has no byte in a header, and spaces at
 * either end are dropped by the receiver: each would make every question fail as "cannot
 * connect" instead of failing here. Positions count from 1; the character itself is not echoed.
 */
function botSecretProblem(secret: string): string | undefined {
  for (let i = 0; i < secret.length; i++) {
    const code = secret.charCodeAt(i);
    if (code === 0x0d || code === 0x0a)
      return `a line break at character ${i + 1}: an HTTP header cannot carry it`;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0))
      return `a control character at character ${i + 1}: an HTTP header cannot carry it`;
    if (code > 0xff)
      return `character ${i + 1} is beyond U+00FF (Latin-1): an HTTP header cannot carry it`;
  }
  if (/^ | $/.test(secret)) return "spaces at either end, which the bot would never receive";
  return undefined;
}

const BotSecretSchema = z
  .string()
  .min(1)
  .max(4096)
  .superRefine((secret, ctx) => {
    const problem = botSecretProblem(secret);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
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
    secret: BotSecretSchema.optional(),
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

/**
 * The bot cannot be registered as asked: its URL is refused by the network policy (`url`), or its
 * secret cannot be stored (`secret`: a server with several users and no RAGJUDGE_SECRET_KEY).
 * HTTP 400 naming the field, with `code` as the error.
 */
export class BotRegistrationError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "invalid_request";
  override readonly name = "BotRegistrationError";
  constructor(
    readonly field: string,
    message: string,
    readonly code: "bot_not_allowed" | "secret_key_required" = "bot_not_allowed",
  ) {
    super(message);
  }
}

/**
 * Registers a bot for the user. Its URL must pass the operator's network policy now (and is
 * checked again at every connection); its secret is stored encrypted with the operator's key
 * (store/bots.ts says when none is needed). The returned row never holds the secret.
 */
export async function registerBot(
  db: Db,
  workspaceId: string,
  input: RegisterBotInput,
  network: Partial<BotNetworkConfig>,
  secretKey: SecretKey | undefined,
): Promise<BotRow> {
  try {
    await checkBotUrl(new URL(input.url), restrictedBotNetwork(network));
  } catch (error) {
    if (error instanceof BotNetworkPolicyError)
      throw new BotRegistrationError("url", error.message);
    throw error;
  }
  try {
    return await createBot(
      db,
      workspaceId,
      {
        name: input.name,
        url: input.url,
        secret_header: input.secret_header,
        secret: input.secret ?? null,
      },
      secretKey,
    );
  } catch (error) {
    if (error instanceof SecretKeyRequiredError)
      throw new BotRegistrationError("secret", error.message, "secret_key_required");
    throw error;
  }
}
