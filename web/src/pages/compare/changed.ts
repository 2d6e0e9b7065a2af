/**
 * "Show only changed": the items whose score, pass, status or gate verdict differ between the runs.
 * The server marks regressions and improvements; an item it calls unchanged may still have moved
 * (a different gate verdict, say), and is kept then.
 */
export function changedOnly<
  T extends {
    change: string;
    base: {
      status: string;
      passed: boolean | null;
      gate_status: string | null;
      score: number | null;
    };
    head: {
      status: string;
      passed: boolean | null;
      gate_status: string | null;
      score: number | null;
    };
  },
>(items: readonly T[]): T[] {
  return items.filter(
    (d) =>
      d.change !== "unchanged" ||
      d.base.status !== d.head.status ||
      d.base.passed !== d.head.passed ||
      d.base.gate_status !== d.head.gate_status ||
      d.base.score !== d.head.score,
  );
}
