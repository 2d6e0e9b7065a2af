import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Db } from "./open.js";
import {
  createApiToken,
  findOrCreateUser,
  findUserByToken,
  LOCAL_USER_NAME,
  type User,
} from "./users.js";

export interface LocalUser {
  user: User;
  /** Where the local user's API token is kept (mode 0600), for `ragjudge serve` clients. */
  tokenPath: string;
  token: string;
}

/**
 * The embedded default has one local user; its token is created on first start and kept in the
 * ragjudge home, so the CLI and a local browser can reach `ragjudge serve`.
 */
export async function ensureLocalUser(db: Db, home: string): Promise<LocalUser> {
  const user = await findOrCreateUser(db, LOCAL_USER_NAME);
  const tokenPath = join(home, "token");
  if (existsSync(tokenPath)) {
    const token = readFileSync(tokenPath, "utf8").trim();
    const owner = await findUserByToken(db, token);
    if (owner?.id === user.id) return { user, tokenPath, token };
  }
  const token = await createApiToken(db, user.id, "local");
  mkdirSync(home, { recursive: true });
  writeFileSync(tokenPath, `${token}\n`, { mode: 0o600 });
  return { user, tokenPath, token };
}
