import { tokenize } from "../../text/index.js";
import type { RankedEntry } from "./metrics.js";

// Which retrieved contexts are relevant to a question, from what the question knows: the ids of
// its relevant documents or chunks, or the texts of its relevant passages.

/** A retrieved context as a bot returns it. */
export interface RetrievedContext {
  node_id: string;
  content: string;
  /** The user's id of the context's document (the `id` given at ingest, or the file's path). */
  document_id?: string | undefined;
  source?: string | undefined;
}

/** What a question knows about the contexts it needs. */
export interface RelevanceKey {
  relevant_ids?: readonly string[] | null | undefined;
  reference_contexts?: readonly string[] | null | undefined;
}

export interface RelevanceJudgement {
  /** `ids` when the question names relevant ids, `contexts` when it gives reference texts. */
  by: "ids" | "contexts";
  /** The relevant items: the ids as given, or `context 1`, `context 2`... for reference texts. */
  relevant: string[];
  /** The retrieved contexts in order, each with the relevant items it matches. */
  ranking: RankedEntry[];
}

/** A reference text's item id in a judgement. */
export function referenceContextId(index: number): string {
  return `context ${index + 1}`;
}

/**
 * The retrieved contexts ranked against the question's relevant items, or null when it names none.
 * `relevant_ids` win over `reference_contexts` when a question has both. An id matches a context
 * whose chunk id, document id or source is exactly that id (trimmed).
 */
export function judgeRelevance(
  contexts: readonly RetrievedContext[],
  key: RelevanceKey,
): RelevanceJudgement | null {
  const ids = distinctTrimmed(key.relevant_ids);
  if (ids.length > 0) {
    const wanted = new Set(ids);
    return {
      by: "ids",
      relevant: ids,
      ranking: contexts.map((context) => ({
        key: context.node_id,
        matches: [context.node_id, context.document_id, context.source].filter(
          (id, i, all): id is string => id !== undefined && wanted.has(id) && all.indexOf(id) === i,
        ),
      })),
    };
  }
  const references = (key.reference_contexts ?? []).map(wordsOf);
  const usable = references.flatMap((words, index) => (words.length > 0 ? [index] : []));
  if (usable.length === 0) return null;
  return {
    by: "contexts",
    relevant: usable.map(referenceContextId),
    ranking: contexts.map((context) => {
      const words = wordsOf(context.content);
      return {
        key: context.node_id,
        matches: usable
          .filter((index) => textsMatch(words, references[index] ?? []))
          .map(referenceContextId),
      };
    }),
  };
}

function distinctTrimmed(values: readonly string[] | null | undefined): string[] {
  return [...new Set((values ?? []).map((value) => value.trim()).filter((value) => value !== ""))];
}

/** Lower-cased words with punctuation and spacing dropped (text/tokenize), the form compared. */
function wordsOf(text: string): string[] {
  return tokenize(text);
}

/** Share of the shorter text's distinct words the longer must hold when neither contains the other. */
export const WORD_OVERLAP_MATCH = 0.8;

/**
 * A retrieved chunk matches a reference text when, as word sequences, one contains the other (a
 * chunk cut from the passage, or a chunk holding the whole passage), or when at least
 * WORD_OVERLAP_MATCH of the shorter one's distinct words occur in the longer (a chunk boundary or
 * a small edit between the two).
 */
export function textsMatch(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (` ${longer.join(" ")} `.includes(` ${shorter.join(" ")} `)) return true;
  const inLonger = new Set(longer);
  const distinct = new Set(shorter);
  let shared = 0;
  for (const word of distinct) if (inLonger.has(word)) shared++;
  return shared / distinct.size >= WORD_OVERLAP_MATCH;
}
