/**
 * Two ticked runs as a comparison: the older is the base (A) and the newer the head (B), whichever
 * was ticked first, so a run that got worse reads as regressions. Equal times keep the tick order.
 */
export function comparePair(
  runs: readonly { id: string; gmt_created: string }[],
): { base: string; head: string } | undefined {
  if (runs.length !== 2) return undefined;
  const [first, second] = runs as [(typeof runs)[0], (typeof runs)[0]];
  const newerFirst = Date.parse(second.gmt_created) < Date.parse(first.gmt_created);
  return newerFirst ? { base: second.id, head: first.id } : { base: first.id, head: second.id };
}
