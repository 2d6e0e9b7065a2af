// The compare drill-down's diff of two answers, word by word (a longest common subsequence over
// words; each CJK character counts as a word, as Chinese has no spaces). No dependency: answers
// are short, and past MAX_CELLS the middle is shown as replaced whole rather than solved.
// Citation markers ([1], [doc-3]) are tokens of their own, compared by the passage they cite and
// shown as chips, never as their raw brackets.

import { splitCitations } from "../../components/citations";

export type DiffKind = "same" | "removed" | "added";

export interface DiffSegment {
  kind: DiffKind;
  /** The words; empty for a citation. */
  text: string;
  /** The id of the passage a citation marker cites. */
  citation?: string;
}

/** Above this many LCS cells (about 2,000 × 2,000 words) the middle is not diffed word by word. */
export const MAX_CELLS = 4_000_000;

const CJK = "\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef";
const TOKEN = new RegExp(`[${CJK}]\\s*|[^\\s${CJK}]+\\s*|\\s+`, "gu");

interface Token {
  /** What is compared: the word without the spaces after it, or the cited passage's id. */
  key: string;
  /** What is shown: the word and the spaces after it. */
  text: string;
  citation?: string;
}

/**
 * The text as words, each with the spaces that follow it (leading spaces are a token of their
 * own); with `cited`, the ids the answer may cite, each citation marker is one token.
 */
export function tokenize(text: string, cited?: ReadonlySet<string>): Token[] {
  const words = (part: string) =>
    (part.match(TOKEN) ?? []).map((t) => ({ key: t.trim(), text: t }));
  if (!cited || cited.size === 0) return words(text);
  return splitCitations(text, cited).flatMap((segment) =>
    "citation" in segment
      ? [{ key: `\u0000${segment.citation}`, text: "", citation: segment.citation }]
      : words(segment.text),
  );
}

function push(out: DiffSegment[], kind: DiffKind, token: Pick<Token, "text" | "citation">) {
  const last = out[out.length - 1];
  if (token.citation !== undefined) out.push({ kind, text: "", citation: token.citation });
  else if (last?.kind === kind && last.citation === undefined) last.text += token.text;
  else if (token.text !== "") out.push({ kind, text: token.text });
}

/**
 * The words of `before` and `after` as kept, removed and added runs, in reading order; with
 * `cited`, the ids each answer may cite, their citation markers as segments of their own.
 */
export function diffWords(
  before: string,
  after: string,
  cited?: { before: ReadonlySet<string>; after: ReadonlySet<string> },
): DiffSegment[] {
  const a = tokenize(before, cited?.before);
  const b = tokenize(after, cited?.after);
  let start = 0;
  while (start < a.length && start < b.length && a[start]!.key === b[start]!.key) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1]!.key === b[endB - 1]!.key) {
    endA--;
    endB--;
  }
  const out: DiffSegment[] = [];
  // The common start and end show as in the new answer.
  for (const t of b.slice(0, start)) push(out, "same", t);
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    for (const t of midA) push(out, "removed", t);
    for (const t of midB) push(out, "added", t);
  } else {
    for (const segment of lcsDiff(midA, midB)) push(out, segment.kind, segment);
  }
  for (const t of b.slice(endB)) push(out, "same", t);
  return out;
}

function lcsDiff(a: readonly Token[], b: readonly Token[]): DiffSegment[] {
  const n = a.length;
  const m = b.length;
  // lengths[i * (m + 1) + j]: the LCS length of a[i..] and b[j..].
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i]!.key === b[j]!.key
          ? lengths[(i + 1) * width + j + 1]! + 1
          : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const out: DiffSegment[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i]!.key === b[j]!.key) {
      push(out, "same", b[j]!);
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      push(out, "removed", a[i++]!);
    } else {
      push(out, "added", b[j++]!);
    }
  }
  for (; i < n; i++) push(out, "removed", a[i]!);
  for (; j < m; j++) push(out, "added", b[j]!);
  return out;
}
