import { z } from "zod";
import {
  type CallRecord,
  type CostTotal,
  costTotalOf,
  type ModelUsage,
  type PriceTable,
  PricedUsageSchema,
  pricedUsage,
  usageByModel,
} from "../../llm/index.js";

/** One model's tokens in one role on one item, with its cost: the bot's, or a judge's. */
export const ItemUsageLineSchema = PricedUsageSchema.extend({
  part: z.enum(["bot", "judge"]),
  /** The judge (reference, rubric, review...) when part is `judge`. */
  judge: z.string().optional(),
});
export type ItemUsageLine = z.infer<typeof ItemUsageLineSchema>;

/** What an item's LLM calls cost: its lines, and their sum. Kept in the row's `usage`. */
export interface ItemCost {
  models: ItemUsageLine[];
  cost: CostTotal;
}

/**
 * Prices an item's usage: the bot's tokens by model (as it reported them) and each judge's calls,
 * every attempt included (a re-asked judge costs both asks).
 */
export function itemCostOf(
  bot: readonly ModelUsage[],
  judgeCalls: Readonly<Record<string, readonly CallRecord[]>>,
  prices: PriceTable,
): ItemCost {
  const models: ItemUsageLine[] = [
    ...bot.map((usage) => ({ part: "bot" as const, ...pricedUsage(usage, prices) })),
    ...Object.entries(judgeCalls).flatMap(([judge, calls]) =>
      usageByModel(calls).map((usage) => ({
        part: "judge" as const,
        judge,
        ...pricedUsage(usage, prices),
      })),
    ),
  ].filter((line) => line.calls > 0 || line.prompt_tokens + line.completion_tokens > 0);
  return { models, cost: costTotalOf(models) };
}

/** The usage lines a stored row holds; rows from before costs were kept have none. */
export function storedUsageLines(usage: unknown): ItemUsageLine[] {
  const models = (usage as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return [];
  return models.flatMap((line) => {
    const parsed = ItemUsageLineSchema.safeParse(line);
    return parsed.success ? [parsed.data] : [];
  });
}
