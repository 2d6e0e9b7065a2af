import { and, eq, inArray } from "drizzle-orm";
import type { CodedMessage } from "../text/index.js";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { question_generations } from "./schema.js";

export type QuestionGenerationRow = typeof question_generations.$inferSelect;
export type QuestionGenerationStatus = QuestionGenerationRow["status"];

export async function createQuestionGeneration(
  db: Db,
  workspaceId: string,
  input: Pick<QuestionGenerationRow, "collection_id" | "config">,
): Promise<QuestionGenerationRow> {
  const [row] = await db
    .insert(question_generations)
    .values({ workspace_id: workspaceId, collection_id: input.collection_id, config: input.config })
    .returning();
  if (!row) throw new Error("insert into question_generations returned no row");
  return row;
}

export async function getQuestionGeneration(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<QuestionGenerationRow | undefined> {
  const [row] = await db
    .select()
    .from(question_generations)
    .where(
      and(
        eq(question_generations.id, idParam(id)),
        eq(question_generations.workspace_id, workspaceId),
      ),
    );
  return row;
}

/**
 * For workers: takes a PENDING generation, or a RUNNING one again (pg-boss retries a job whose
 * worker died); a finished one gets nothing.
 */
export async function claimQuestionGeneration(
  db: Db,
  id: string,
): Promise<QuestionGenerationRow | undefined> {
  const [row] = await db
    .update(question_generations)
    .set({ status: "RUNNING", progress: 0, gmt_updated: new Date() })
    .where(
      and(
        eq(question_generations.id, idParam(id)),
        inArray(question_generations.status, ["PENDING", "RUNNING"]),
      ),
    )
    .returning();
  return row;
}

export async function setQuestionGenerationProgress(
  db: Db,
  id: string,
  progress: number,
): Promise<void> {
  await db
    .update(question_generations)
    .set({ progress, gmt_updated: new Date() })
    .where(
      and(eq(question_generations.id, idParam(id)), eq(question_generations.status, "RUNNING")),
    );
}

/**
 * Stores the outcome of a RUNNING generation: its preview questions and LLM usage (null without
 * an LLM), or the error. A failure stores no usage: generateQuestions throws its calls away.
 */
export async function finishQuestionGeneration(
  db: Db,
  id: string,
  outcome:
    | {
        status: "COMPLETED";
        questions: unknown[];
        heuristic: boolean;
        warnings: CodedMessage[];
        usage: QuestionGenerationRow["usage"];
      }
    | { status: "FAILED"; error: CodedMessage },
): Promise<QuestionGenerationRow | undefined> {
  const [row] = await db
    .update(question_generations)
    .set({
      ...(outcome.status === "COMPLETED"
        ? {
            status: "COMPLETED" as const,
            progress: 100,
            questions: outcome.questions,
            heuristic: outcome.heuristic,
            warnings: outcome.warnings,
            usage: outcome.usage,
            error: null,
            error_message: null,
          }
        : {
            status: "FAILED" as const,
            // The English words for API users and the CLI; the code for the web app's language.
            error: outcome.error.message,
            error_message: outcome.error,
          }),
      gmt_updated: new Date(),
    })
    .where(
      and(eq(question_generations.id, idParam(id)), eq(question_generations.status, "RUNNING")),
    )
    .returning();
  return row;
}

/** Puts a RUNNING generation back to PENDING (its worker stopped before finishing). */
export async function releaseQuestionGeneration(db: Db, id: string): Promise<void> {
  await db
    .update(question_generations)
    .set({ status: "PENDING", progress: 0, gmt_updated: new Date() })
    .where(
      and(eq(question_generations.id, idParam(id)), eq(question_generations.status, "RUNNING")),
    );
}
