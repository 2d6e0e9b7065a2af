import { randomUUID } from "node:crypto";
import { and, asc, count, eq, isNotNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { bots, users } from "./schema.js";
import {
  isSealedSecret,
  openSecret,
  SECRET_KEY_ENV,
  type SecretKey,
  sealSecret,
} from "./secret-box.js";

type StoredBot = typeof bots.$inferSelect;

/** A registered bot as its owner may read it: never the secret, only whether there is one. */
export type BotRow = Pick<StoredBot, "id" | "name" | "url" | "secret_header" | "gmt_created"> & {
  has_secret: boolean;
};

/** What a worker needs to call the bot: its URL and the credential for that URL. */
export type BotCredential = Pick<StoredBot, "url" | "secret_header" | "secret">;

export class BotNameTakenError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "name_taken";
  override readonly name = "BotNameTakenError";
  constructor(readonly botName: string) {
    super(`a bot named "${botName}" already exists`);
  }
}

// Every read names its columns, and these never include the secret: botCredential alone reads it.
const publicColumns = {
  id: bots.id,
  name: bots.name,
  url: bots.url,
  secret_header: bots.secret_header,
  has_secret: sql<boolean>`${bots.secret} is not null`,
  gmt_created: bots.gmt_created,
};

/** A secret cannot be stored: the database has several users and the operator set no key. */
export class SecretKeyRequiredError extends Error {
  override readonly name = "SecretKeyRequiredError";
  constructor() {
    super(
      `this server has several users, so it stores bot secrets only encrypted, and its operator has not set ${SECRET_KEY_ENV}; ` +
        "register the bot without a secret, or ask the operator to set the key",
    );
  }
}

/** What a sealed secret is bound to: its owner and its bot, so it opens in that row only. */
const secretContext = (workspaceId: string, botId: string) => `bots.secret:${workspaceId}:${botId}`;

/**
 * Registers a bot. With the operator's key its secret is stored encrypted (AES-256-GCM); without
 * one it is stored as given only while the database has a single user (the local user's own
 * embedded store), and refused (SecretKeyRequiredError) once it has more.
 */
export async function createBot(
  db: Db,
  workspaceId: string,
  input: { name: string; url: string; secret_header: string; secret: string | null },
  secretKey: SecretKey | undefined,
): Promise<BotRow> {
  const id = randomUUID();
  let secret = input.secret;
  if (secret !== null) {
    if (secretKey) secret = sealSecret(secretKey, secret, secretContext(workspaceId, id));
    else if ((await userCount(db)) > 1) throw new SecretKeyRequiredError();
  }
  const [row] = await db
    .insert(bots)
    .values({ id, workspace_id: workspaceId, ...input, secret })
    .onConflictDoNothing({ target: [bots.workspace_id, bots.name] })
    .returning(publicColumns);
  if (!row) throw new BotNameTakenError(input.name);
  return row;
}

export async function listBots(db: Db, workspaceId: string): Promise<BotRow[]> {
  return db
    .select(publicColumns)
    .from(bots)
    .where(eq(bots.workspace_id, workspaceId))
    .orderBy(asc(bots.name));
}

/** The user's bot; another user's id, or a malformed one, is undefined (a 404). */
export async function getBot(db: Db, workspaceId: string, id: string): Promise<BotRow | undefined> {
  const [row] = await db
    .select(publicColumns)
    .from(bots)
    .where(and(eq(bots.id, idParam(id)), eq(bots.workspace_id, workspaceId)));
  return row;
}

export async function deleteBot(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(bots)
    .where(and(eq(bots.id, idParam(id)), eq(bots.workspace_id, workspaceId)))
    .returning({ id: bots.id });
  return deleted.length > 0;
}

async function userCount(db: Db): Promise<number> {
  const [row] = await db.select({ users: count() }).from(users);
  return row?.users ?? 0;
}

/**
 * The bot's URL and secret as given, for the worker running one of its owner's runs; scoped by
 * owner. A sealed secret is opened with the key (a StoredSecretError says why it cannot be); a
 * plaintext one, stored before there was a key, is read as it is.
 */
export async function botCredential(
  db: Db,
  workspaceId: string,
  id: string,
  secretKey: SecretKey | undefined,
): Promise<BotCredential | undefined> {
  const [row] = await db
    .select({ id: bots.id, url: bots.url, secret_header: bots.secret_header, secret: bots.secret })
    .from(bots)
    .where(and(eq(bots.id, idParam(id)), eq(bots.workspace_id, workspaceId)));
  if (!row) return undefined;
  const { url, secret_header, secret } = row;
  return {
    url,
    secret_header,
    secret:
      secret === null ? null : openSecret(secret, secretKey, secretContext(workspaceId, row.id)),
  };
}

/**
 * Encrypts the secrets stored as given before the operator set a key (run at start-up by `serve`
 * and `worker`). Each row is rewritten only if it still holds the value read, so processes
 * starting together neither clash nor seal twice. Returns how many were sealed.
 */
export async function sealStoredSecrets(db: Db, secretKey: SecretKey): Promise<number> {
  const rows = await db
    .select({ id: bots.id, workspace_id: bots.workspace_id, secret: bots.secret })
    .from(bots)
    .where(isNotNull(bots.secret));
  let sealed = 0;
  for (const row of rows) {
    if (row.secret === null || isSealedSecret(row.secret)) continue;
    const updated = await db
      .update(bots)
      .set({ secret: sealSecret(secretKey, row.secret, secretContext(row.workspace_id, row.id)) })
      .where(and(eq(bots.id, row.id), eq(bots.secret, row.secret)))
      .returning({ id: bots.id });
    sealed += updated.length;
  }
  return sealed;
}
