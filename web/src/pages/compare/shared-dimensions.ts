/**
 * The radar dimensions two runs both have, in A's order, and those only one of them has: the
 * compare radar draws the shared ones only, since a missing dimension is not a score of 0.
 */
export function sharedDimensions(
  base: readonly string[],
  head: readonly string[],
): { labels: string[]; onlyBase: string[]; onlyHead: string[] } {
  const inHead = new Set(head);
  const inBase = new Set(base);
  return {
    labels: base.filter((l) => inHead.has(l)),
    onlyBase: base.filter((l) => !inHead.has(l)),
    onlyHead: head.filter((l) => !inBase.has(l)),
  };
}
