// Question sets' public face: import, export, de-duplication and generation, all pure (the store
// layer persists what these return).
export {
  chunkLanguage,
  type DocumentChunks,
  type PickedChunk,
  pickChunksRoundRobin,
} from "./chunks.js";
export {
  assertNoDuplicateQuestions,
  type DuplicateRow,
  duplicateRowErrors,
  findDuplicates,
  questionKey,
} from "./duplicates.js";
export {
  QuestionGenerationError,
  QuestionImportError,
  type RowError,
  summarizeRowErrors,
} from "./errors.js";
export { exportQuestions, QUESTION_CSV_COLUMNS } from "./export.js";
export {
  GENERATED_QUESTION_TYPES,
  type GeneratedQuestion,
  type GenerateQuestionsOptions,
  type GenerateQuestionsResult,
  GENERATION_DEFAULTS,
  generateQuestions,
  generationMessages,
  HEURISTIC_WARNING,
} from "./generate.js";
export {
  fillGenerationPrompt,
  GENERATION_PROMPTS,
  GENERATION_SYSTEM_PROMPTS,
  TYPE_RESTRICTION_PROMPTS,
  validateGenerationPrompt,
} from "./generate.prompts.js";
export {
  type GeneratedQuestionType,
  type HeuristicQuestion,
  heuristicQuestions,
} from "./heuristic.js";
export { referencesOf, type ReferenceFields, storedReferences } from "./references.js";
export { type RelevanceFields, storedList, storedRelevance } from "./relevance.js";
export { parseQuestionFileOffThread, type QuestionImportJob } from "./import-thread.js";
export {
  importErrorOf,
  parseQuestionFile,
  QUESTION_FORMATS,
  type QuestionFormat,
  questionFormatOf,
  type RawRow,
} from "./import.js";
export {
  QUESTION_LIMITS,
  QUESTION_TYPES,
  type QuestionInput,
  QuestionInputSchema,
  type QuestionSetMeta,
  QuestionSetMetaSchema,
  type QuestionType,
  QuestionTypeSchema,
} from "./schema.js";
