import { z } from "zod";

// Chunking settings, stored in collections.config and fixed when the collection is created:
// chunk ids are positions, so changing the sizes later would move every id.

export const CHUNKING_DEFAULTS = {
  /** Target chunk length in length units (see chunk.ts: a Latin character is 1, a CJK one 3). */
  chunk_size: 1_000,
  /** Length carried over from the end of one chunk to the start of the next. */
  chunk_overlap: 150,
} as const;

export const CollectionConfigSchema = z
  .object({
    chunk_size: z.number().int().min(100).max(20_000).default(CHUNKING_DEFAULTS.chunk_size),
    chunk_overlap: z.number().int().min(0).default(CHUNKING_DEFAULTS.chunk_overlap),
  })
  .refine((config) => config.chunk_overlap < config.chunk_size / 2, {
    message: "chunk_overlap must be less than half of chunk_size",
    path: ["chunk_overlap"],
  });

export type CollectionConfig = z.infer<typeof CollectionConfigSchema>;
export type CollectionConfigInput = z.input<typeof CollectionConfigSchema>;
