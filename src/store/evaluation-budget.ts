import { and, eq, isNull, sql } from "drizzle-orm";
import { idParam } from "./ids.js";
import type { Db } from "./open.js";
import { evaluations } from "./schema.js";

/**
 * What an item in flight holds of its run's cost limit: this many times the dearest finished
 * item's cost. Items differ (a longer answer, a re-ask), so a margin keeps the estimate on the
 * safe side of the limit.
 */
export const ITEM_COST_MARGIN = 1.5;

export type Reservation =
  | { admitted: true; reservedUsd: number }
  /** Items in flight hold part of the budget: wait for them, the limit may still allow this one. */
  | { admitted: false; outcome: "wait" }
  /** Nothing was in flight and the item did not fit: the run was paused, with `reason`. */
  | { admitted: false; outcome: "paused" }
  /** The run is not RUNNING (paused or cancelled by someone else): the item must not start. */
  | { admitted: false; outcome: "stopped" };

/**
 * The run's limit as its row holds it now. Read in each statement, not from a worker's snapshot:
 * a limit raised or removed at resume would otherwise be checked at its old value by an item that
 * read it before, and that item would pause the resumed run again.
 */
const limitOfRow = sql`(${evaluations.config}->>'max_cost_usd')::float8`;

/** The estimate of one more item's cost, and whether it fits, from the run's row as it is. */
function estimateOf() {
  const e = evaluations;
  const limit = limitOfRow;
  const estimate = sql`(case when ${limit} is null then 0::float8
    when ${e.cost_item_max_usd} is null then greatest(${limit} - ${e.cost_spent_usd}, 0)
    else ${e.cost_item_max_usd} * ${ITEM_COST_MARGIN}::float8 end)`;
  // Before any item finished the estimate is all that is left: it fits only with nothing in flight.
  const fits = sql`(${limit} is null or case when ${e.cost_item_max_usd} is null
    then ${e.cost_reserved_usd} <= 1e-12 and ${e.cost_spent_usd} < ${limit}
    else ${e.cost_spent_usd} + ${e.cost_reserved_usd} + ${estimate} <= ${limit} end)`;
  return { estimate, fits };
}

/**
 * Reserves a conservative estimate of one item's cost against the run's limit, or says why not.
 * The estimate is ITEM_COST_MARGIN times the dearest finished item; before any item finished it
 * is all that is left of the budget, so the first item runs alone and prices the rest. When the
 * item does not fit and nothing is in flight, the run is paused with `reason` (worded from the
 * limit that was checked). Each step is one statement on the run's row: concurrent workers queue
 * on its lock and each checks the row as the previous one left it, so what is spent and reserved
 * stays within the limit, and a run is never paused while an item that fits is only waiting for
 * another to settle.
 */
export async function reserveItemCost(
  db: Db,
  evaluationId: string,
  reason: (limitUsd: number) => string,
): Promise<Reservation> {
  const e = evaluations;
  const id = idParam(evaluationId);
  const { estimate, fits } = estimateOf();
  for (;;) {
    const [row] = await db
      .update(e)
      .set({ cost_reserved_usd: sql`${e.cost_reserved_usd} + ${estimate}` })
      .where(and(eq(e.id, id), eq(e.status, "RUNNING"), fits))
      // The update leaves spent and the dearest item as they were: the same estimate.
      .returning({ reserved: sql<number>`${estimate}` });
    if (row) return { admitted: true, reservedUsd: Number(row.reserved) };
    const [now] = await db
      .select({
        status: e.status,
        reserved: e.cost_reserved_usd,
        limit: sql<number | null>`${limitOfRow}`,
        fits: sql<boolean>`${fits}`,
      })
      .from(e)
      .where(eq(e.id, id));
    if (now?.status !== "RUNNING") return { admitted: false, outcome: "stopped" };
    // Something is in flight: wait for it, the limit may still allow this item.
    if (now.reserved > 1e-12) return { admitted: false, outcome: "wait" };
    // Settled since the first statement, or the limit was raised: try again at once.
    if (now.fits || now.limit === null) continue;
    const limit = Number(now.limit);
    const [paused] = await db
      .update(e)
      .set({ status: "PAUSED", status_reason: reason(limit), gmt_updated: new Date() })
      .where(
        and(
          eq(e.id, id),
          eq(e.status, "RUNNING"),
          sql`${e.cost_reserved_usd} <= 1e-12`,
          sql`not ${fits}`,
          // The limit the reason names is still the run's.
          sql`${limitOfRow} = ${limit}::float8`,
        ),
      )
      .returning({ id: e.id });
    if (paused) return { admitted: false, outcome: "paused" };
  }
}

/**
 * Gives back an item's reservation; a finished item also adds what it cost (`costUsd`) to the
 * spent amount and the dearest-item estimate. An aborted item passes null: nothing finished.
 */
export async function settleItemCost(
  db: Db,
  evaluationId: string,
  reservedUsd: number,
  costUsd: number | null,
): Promise<void> {
  const e = evaluations;
  await db
    .update(e)
    .set({
      cost_reserved_usd: sql`greatest(0, ${e.cost_reserved_usd} - ${reservedUsd}::float8)`,
      ...(costUsd === null
        ? {}
        : {
            cost_spent_usd: sql`${e.cost_spent_usd} + ${costUsd}::float8`,
            // A free item (no LLM call made) says nothing of what the next one costs.
            ...(costUsd > 0
              ? {
                  cost_item_max_usd: sql`greatest(coalesce(${e.cost_item_max_usd}, 0), ${costUsd}::float8)`,
                }
              : {}),
          }),
    })
    .where(eq(e.id, idParam(evaluationId)));
}

/**
 * Sets a paused run's cost limit (in its snapshot, where workers read it), e.g. to raise it before
 * resuming a run paused at its limit; null removes the limit. False when the run is not the
 * user's or not PAUSED.
 */
export async function setEvaluationCostLimit(
  db: Db,
  workspaceId: string,
  evaluationId: string,
  limitUsd: number | null,
): Promise<boolean> {
  const e = evaluations;
  const rows = await db
    .update(e)
    .set({
      config:
        limitUsd === null
          ? sql`jsonb_set(${e.config}, '{max_cost_usd}', 'null'::jsonb)`
          : sql`jsonb_set(${e.config}, '{max_cost_usd}', to_jsonb(${limitUsd}::float8))`,
      gmt_updated: new Date(),
    })
    .where(
      and(
        eq(e.id, idParam(evaluationId)),
        eq(e.workspace_id, workspaceId),
        eq(e.status, "PAUSED"),
        isNull(e.gmt_deleted),
      ),
    )
    .returning({ id: e.id });
  return rows.length > 0;
}
