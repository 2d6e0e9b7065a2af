export {
  type EvaluationRecordRow,
  evaluationRecordRepo,
  getEvaluationRecord,
  insertEvaluationRecords,
  listEvaluationRecords,
  type NewEvaluationRecordRow,
} from "./evaluation-records.js";
export { llmResponseCache } from "./llm-cache.js";
export { type LocalUser, ensureLocalUser } from "./local-user.js";
export { StoreLockedError } from "./lock.js";
export { MIGRATIONS_FOLDER } from "./migrate.js";
export {
  type Db,
  openStore,
  redactDatabaseUrl,
  type Store,
  type StoreOptions,
  storeOptionsFromEnv,
} from "./open.js";
export { queryRows } from "./raw-query.js";
export * as schema from "./schema.js";
export {
  createApiToken,
  findOrCreateUser,
  findUserByToken,
  hashToken,
  LOCAL_USER_NAME,
  type User,
} from "./users.js";
