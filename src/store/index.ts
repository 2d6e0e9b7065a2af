export {
  type ChunkRow,
  type ChunkWithDocument,
  CollectionNameTakenError,
  CollectionNotFoundError,
  type CollectionRow,
  type CollectionSummary,
  chunkEmbeddingPages,
  chunksMissingEmbedding,
  chunkTokenPages,
  chunkTokensOfDocuments,
  createCollection,
  type DocumentKind,
  type DocumentRow,
  deleteCollection,
  deleteDocument,
  documentIds,
  ensureCollection,
  findCollectionByName,
  findDocumentsByHashOrSource,
  getChunksWithDocuments,
  getCollection,
  getCollectionVersion,
  getDocument,
  isUuid,
  listChunks,
  listCollections,
  listDocuments,
  type NewChunk,
  type NewDocument,
  setChunkEmbeddings,
  type WriteDocumentsResult,
  writeDocuments,
} from "./collections.js";
export {
  type EvaluationRecordRow,
  evaluationRecordRepo,
  getEvaluationRecord,
  insertEvaluationRecords,
  listEvaluationRecords,
  type NewEvaluationRecordRow,
} from "./evaluation-records.js";
export { llmResponseCache } from "./llm-cache.js";
export { ensureLocalUser, type LocalUser } from "./local-user.js";
export { StoreLockedError } from "./lock.js";
export { MIGRATIONS_FOLDER } from "./migrate.js";
export {
  appendObservations,
  listObservations,
  type NewObservation,
  type ObservationRow,
  observationPages,
  observationWriter,
} from "./observations.js";
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
