export type AnswerSegment = { text: string } | { citation: string };

/**
 * Splits an answer into text and citation markers (`[node_id]`, several ids may share one pair of
 * brackets, separated by commas). Only ids the result knows (its sources or citations) become
 * citations; other bracketed text stays text.
 */
export function splitCitations(answer: string, known: ReadonlySet<string>): AnswerSegment[] {
  const segments: AnswerSegment[] = [];
  let last = 0;
  for (const match of answer.matchAll(/\[([^\]]{1,400})\]/g)) {
    const ids = (match[1] ?? "").split(",").map((s) => s.trim());
    if (ids.length === 0 || !ids.every((id) => known.has(id))) continue;
    if (match.index > last) segments.push({ text: answer.slice(last, match.index) });
    for (const id of ids) segments.push({ citation: id });
    last = match.index + match[0].length;
  }
  if (last < answer.length) segments.push({ text: answer.slice(last) });
  return segments;
}
