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

/**
 * Each cited id's chip number: its source's place in the list, else its place among the answer's
 * citations that name no source (after the sources).
 */
export function citationNumbers(
  segments: readonly AnswerSegment[],
  sources: readonly { node_id: string }[],
): (id: string) => number {
  const unlisted = [
    ...new Set(
      segments.flatMap((s) =>
        "citation" in s && !sources.some((source) => source.node_id === s.citation)
          ? [s.citation]
          : [],
      ),
    ),
  ];
  return (id) => {
    const index = sources.findIndex((s) => s.node_id === id);
    if (index >= 0) return index + 1;
    return sources.length + unlisted.indexOf(id) + 1;
  };
}
