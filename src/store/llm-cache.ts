import { and, eq } from "drizzle-orm";
import type { Db } from "./open.js";
import { llm_cache } from "./schema.js";

/**
 * The database side of the LLM response cache (llm/cache.ts defines the interface and validates
 * what comes out). A repeated key keeps its first response.
 */
export function llmResponseCache(db: Db, workspaceId: string) {
  return {
    async get(key: string): Promise<unknown> {
      const [row] = await db
        .select({ response: llm_cache.response })
        .from(llm_cache)
        .where(and(eq(llm_cache.workspace_id, workspaceId), eq(llm_cache.key, key)));
      return row?.response;
    },
    async set(key: string, value: { model: string; [field: string]: unknown }): Promise<void> {
      await db
        .insert(llm_cache)
        .values({ workspace_id: workspaceId, key, model: value.model, response: value })
        .onConflictDoNothing();
    },
  };
}
