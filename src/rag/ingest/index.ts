// Public face of rag/ingest: files and parsed documents into a collection's chunks.
export {
  type ChunkDraft,
  chunkBlocks,
  UNSPACED_CHARACTER_WEIGHT,
  weightedLength,
} from "./chunk.js";
export {
  CHUNKING_DEFAULTS,
  type CollectionConfig,
  type CollectionConfigInput,
  CollectionConfigSchema,
} from "./config.js";
export { type DocumentBlock, documentText, type ParsedDocument } from "./document.js";
export { parseHtml } from "./html.js";
export {
  type CollectionRef,
  chunkId,
  documentId,
  EMBED_BATCH,
  type IngestOptions,
  type IngestProgress,
  type IngestResult,
  ingestDocuments,
  ingestPaths,
} from "./ingest.js";
export { JsonlDocumentSchema, parseJsonlDocuments } from "./jsonl.js";
export { parseMarkdown } from "./markdown.js";
export { EXTENSION_KINDS, type IngestProblem, kindOfPath, parseBytes, parseFile } from "./parse.js";
export { formatBytes, PARSE_LIMITS, type ParseLimits } from "./limits.js";
export type { ParseJob, ParseOutcome, ParsedItem } from "./parse-job.js";
export {
  ParseLimitError,
  parseOffThread,
  parseThread,
  type ThreadLimits,
  type ThreadReply,
  type ThreadRequest,
  threadModuleUrl,
} from "./parse-thread.js";
export { parsePdf } from "./pdf.js";
export { DecodedBytesLimitError, pdfDecodedBytes } from "./pdf-streams.js";
export {
  contentHash,
  hasText,
  type PreparedChunk,
  type PreparedDocument,
  prepareDocument,
} from "./prepare.js";
export {
  parseUploads,
  type Upload,
  type UploadProblem,
  UploadSchema,
  UploadsSchema,
} from "./uploads.js";
