import { z } from "zod";
import { type Jobs, QUEUES } from "../../jobs/index.js";
import {
  createQuestionGeneration,
  type Db,
  documentIds,
  getQuestionGeneration,
  type QuestionGenerationRow,
} from "../../store/index.js";
import { resolveCollectionId } from "../question-sets/index.js";
import {
  GENERATED_QUESTION_TYPES,
  QuestionGenerationError,
  validateGenerationPrompt,
} from "../questions/index.js";

/** The most questions one generation may ask for (a preview a person reads before saving). */
export const MAX_GENERATED_QUESTIONS = 200;

/** `POST /question-sets/generate` (seed 003 section 4.1). */
export const GenerateQuestionsRequestSchema = z.object({
  /** The collection's id or name. */
  collection_id: z.string().trim().min(1).max(256),
  n: z.number().int().min(1).max(MAX_GENERATED_QUESTIONS),
  types: z.array(z.enum(GENERATED_QUESTION_TYPES)).min(1, "at least one type").optional(),
  /** A template in place of seed 003's; must contain {document_content}. */
  prompt: z.string().max(20_000).optional(),
  language: z.enum(["en", "zh", "auto"]).optional(),
});
export type GenerateQuestionsRequest = z.infer<typeof GenerateQuestionsRequestSchema>;

/** What the generation job reads from the row (`config`). */
export type GenerationConfig = GenerateQuestionsRequest;

/** The job a generation sends. */
export interface GenerationJob {
  generation_id: string;
}

export class QuestionGenerationNotFoundError extends Error {
  /** How server/errors.ts and cli/main.ts read it (status, exit code). */
  readonly kind = "not_found";
  override readonly name = "QuestionGenerationNotFoundError";
  constructor(readonly id: string) {
    super(`question generation ${id} not found`);
  }
}

/**
 * Records a PENDING generation and sends its job; the caller polls the row for the preview. A
 * collection without documents, or a prompt without {document_content}, is refused here rather
 * than failing later in the job.
 */
export async function requestQuestionGeneration(
  deps: { db: Db; jobs: Pick<Jobs, "send"> },
  workspaceId: string,
  request: GenerateQuestionsRequest,
): Promise<QuestionGenerationRow> {
  const collectionId = await resolveCollectionId(deps.db, workspaceId, request.collection_id);
  if (request.prompt !== undefined) validateGenerationPrompt(request.prompt);
  if ((await documentIds(deps.db, workspaceId, collectionId)).length === 0) {
    throw new QuestionGenerationError("collection_id", "the collection has no documents yet");
  }
  const config: GenerationConfig = { ...request, collection_id: collectionId };
  const row = await createQuestionGeneration(deps.db, workspaceId, {
    collection_id: collectionId,
    config,
  });
  await deps.jobs.send(QUEUES.questionGeneration, [
    { generation_id: row.id } satisfies GenerationJob,
  ]);
  return row;
}

export async function getGeneration(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<QuestionGenerationRow> {
  const row = await getQuestionGeneration(db, workspaceId, id);
  if (!row) throw new QuestionGenerationNotFoundError(id);
  return row;
}
