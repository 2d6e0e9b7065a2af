import {
  type Actor,
  ensureLocalUser,
  openStore,
  type Store,
  storeOptionsFromEnv,
  type User,
} from "../store/index.js";

export interface StoreSession {
  store: Store;
  user: User;
  /** The local user in their personal workspace, which the CLI works in. */
  actor: Actor;
  home: string;
  tokenPath: string;
  close(): Promise<void>;
}

/**
 * Opens the configured store (PGlite in RAGJUDGE_HOME, or DATABASE_URL) as the local user: the
 * CLI has direct access to the database, so it needs no API token.
 */
export async function openStoreSession(
  env: NodeJS.ProcessEnv = process.env,
): Promise<StoreSession> {
  const options = storeOptionsFromEnv(env);
  const store = await openStore(options);
  try {
    const home = options.home ?? ".ragjudge";
    const local = await ensureLocalUser(store.db, home);
    return {
      store,
      user: local.user,
      actor: { workspaceId: local.user.id, userId: local.user.id },
      home,
      tokenPath: local.tokenPath,
      close: () => store.close(),
    };
  } catch (error) {
    await store.close();
    throw error;
  }
}
