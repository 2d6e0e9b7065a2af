import { z } from "zod";

/** A retrieved chunk: plain text, or a retrieval hit as the gate receives it (seed 004). */
export const ContextItemSchema = z.union([
  z.string(),
  z.looseObject({
    content: z.string(),
    node_id: z.string().optional(),
    source: z.string().optional(),
  }),
]);
export type ContextItem = z.infer<typeof ContextItemSchema>;

/** Appended to a truncated item so the judge knows the text goes on (seed 000: 省略标记). */
export const ELLIPSIS = "…";

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * The first `max` characters (code points, so an emoji or rare CJK character is never split) and an
 * ellipsis marker when anything was cut.
 */
export function truncateChars(text: string, max: number): string {
  if (text.length <= max) return text;
  // Fast path: no surrogate pair in reach, so UTF-16 units are code points.
  if (!SURROGATE.test(text.slice(0, max + 1))) return `${text.slice(0, max)}${ELLIPSIS}`;
  let index = 0;
  let count = 0;
  while (index < text.length && count < max) {
    const code = text.codePointAt(index) as number;
    index += code > 0xffff ? 2 : 1;
    count++;
  }
  return index >= text.length ? text : `${text.slice(0, index)}${ELLIPSIS}`;
}

export interface FormatContextOptions {
  /** Items kept, from the top (the retriever's order). */
  maxItems: number;
  /** Characters kept per item before the ellipsis marker. */
  maxChars: number;
  /** Shown when there are no items. */
  empty: string;
}

/** Numbered items, `[1] (source: a.pdf, id: n1)` then the text, ready to paste into a prompt. */
export function formatContext(
  items: readonly ContextItem[],
  options: FormatContextOptions,
): string {
  if (items.length === 0) return options.empty;
  // Concatenated, not joined: the prompt template joins the whole message into one flat string, so
  // a flat copy of the context here would be a second copy of it.
  let out = "";
  const count = Math.min(items.length, options.maxItems);
  for (let i = 0; i < count; i++) {
    const item = items[i] as ContextItem;
    if (i > 0) out += "\n\n";
    out += `[${i + 1}]`;
    if (typeof item === "string") {
      out += `\n${truncateChars(item, options.maxChars)}`;
      continue;
    }
    if (item.source && item.node_id) out += ` (source: ${item.source}, id: ${item.node_id})`;
    else if (item.source) out += ` (source: ${item.source})`;
    else if (item.node_id) out += ` (id: ${item.node_id})`;
    out += `\n${truncateChars(item.content, options.maxChars)}`;
  }
  return out;
}
