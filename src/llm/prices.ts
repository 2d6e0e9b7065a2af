import { z } from "zod";
import type { ModelUsage } from "./usage.js";

/** One model's price in US dollars per million tokens. */
export const ModelPriceSchema = z
  .object({
    input: z.number().min(0).max(10_000),
    /** Prompt tokens served from the provider's prompt cache; without it they cost `input`. */
    cached_input: z.number().min(0).max(10_000).optional(),
    output: z.number().min(0).max(10_000),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Prices by model name, as the provider spells it (the `model` a client sends). */
export const PriceTableSchema = z.record(z.string().min(1).max(256), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

/** When DEFAULT_PRICES were copied from the provider's price list. */
export const PRICES_AS_OF = "2025-08-07";

/**
 * OpenAI's standard-tier prices for common models as of PRICES_AS_OF (USD per million tokens;
 * batch and flex discounts left out). Prices change: the config's `prices` section overrides any
 * of them and adds others (docs/cost.md). A model in neither has no price, never a guessed one.
 */
export const DEFAULT_PRICES: PriceTable = {
  "gpt-4o": { input: 2.5, cached_input: 1.25, output: 10 },
  "gpt-4o-mini": { input: 0.15, cached_input: 0.075, output: 0.6 },
  "gpt-4.1": { input: 2, cached_input: 0.5, output: 8 },
  "gpt-4.1-mini": { input: 0.4, cached_input: 0.1, output: 1.6 },
  "gpt-4.1-nano": { input: 0.1, cached_input: 0.025, output: 0.4 },
  "gpt-5": { input: 1.25, cached_input: 0.125, output: 10 },
  "gpt-5-mini": { input: 0.25, cached_input: 0.025, output: 2 },
  "gpt-5-nano": { input: 0.05, cached_input: 0.005, output: 0.4 },
  o1: { input: 15, cached_input: 7.5, output: 60 },
  "o1-mini": { input: 1.1, cached_input: 0.55, output: 4.4 },
  o3: { input: 2, cached_input: 0.5, output: 8 },
  "o3-mini": { input: 1.1, cached_input: 0.55, output: 4.4 },
  "o4-mini": { input: 1.1, cached_input: 0.275, output: 4.4 },
  "gpt-4-turbo": { input: 10, output: 30 },
  "gpt-3.5-turbo": { input: 0.5, output: 1.5 },
  "text-embedding-3-small": { input: 0.02, output: 0 },
  "text-embedding-3-large": { input: 0.13, output: 0 },
  "text-embedding-ada-002": { input: 0.1, output: 0 },
};

/** The defaults with the config's own prices over them. */
export function priceTableWith(overrides: PriceTable = {}): PriceTable {
  return { ...DEFAULT_PRICES, ...overrides };
}

/**
 * A model's price: its exact name, else the name without a dated snapshot suffix
 * (`gpt-4o-2024-08-06` is priced as `gpt-4o`). No nearest-name guess: `gpt-4o-mini` never takes
 * `gpt-4o`'s price.
 */
export function priceOf(model: string, table: PriceTable): ModelPrice | undefined {
  const exact = table[model];
  if (exact) return exact;
  const undated = model.replace(/-\d{4}-\d{2}-\d{2}$/, "");
  return undated !== model ? table[undated] : undefined;
}

/**
 * What one model's tokens cost in USD, or null when the table has no price for the model.
 * Cached prompt tokens are part of prompt_tokens and cost `cached_input` (else `input`).
 */
export function costOfUsage(
  usage: Pick<ModelUsage, "model" | "prompt_tokens" | "cached_tokens" | "completion_tokens">,
  table: PriceTable,
): number | null {
  const price = priceOf(usage.model, table);
  if (!price) return null;
  const cached = Math.min(usage.cached_tokens, usage.prompt_tokens);
  const fresh = usage.prompt_tokens - cached;
  return (
    (fresh * price.input +
      cached * (price.cached_input ?? price.input) +
      usage.completion_tokens * price.output) /
    1_000_000
  );
}

/** Tokens and cost of one model in one role, with its price when the table has one. */
export const PricedUsageSchema = z.object({
  role: z.string(),
  model: z.string(),
  calls: z.number().int().min(0),
  prompt_tokens: z.number().int().min(0),
  cached_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  /** Calls answered from ragjudge's response cache, and their tokens: priced at nothing. */
  cache_hits: z.number().int().min(0).optional(),
  cache_hit_tokens: z.number().int().min(0).optional(),
  /** USD; null: no price for this model ("price unknown"), never a guess. */
  cost_usd: z.number().min(0).nullable(),
});
export type PricedUsage = z.infer<typeof PricedUsageSchema>;

/** A line whose every call came from ragjudge's response cache spent nothing, priced or not. */
export function pricedUsage(usage: ModelUsage, table: PriceTable): PricedUsage {
  const spent = usage.prompt_tokens + usage.completion_tokens > 0 || !usage.cache_hits;
  return { ...usage, cost_usd: spent ? costOfUsage(usage, table) : 0 };
}

/** A total over many priced lines: what is known, and which models' tokens have no price. */
export const CostTotalSchema = z.object({
  /** USD of the lines with a price; 0 when none has one. */
  cost_usd: z.number().min(0),
  prompt_tokens: z.number().int().min(0),
  cached_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
  /** Models whose tokens are counted but not priced: the cost is at least cost_usd. */
  unpriced_models: z.array(z.string()),
});
export type CostTotal = z.infer<typeof CostTotalSchema>;

export function emptyCostTotal(): CostTotal {
  return {
    cost_usd: 0,
    prompt_tokens: 0,
    cached_tokens: 0,
    completion_tokens: 0,
    unpriced_models: [],
  };
}

/** Adds priced lines into `total` (in place) and returns it. */
export function addToCostTotal(total: CostTotal, lines: readonly PricedUsage[]): CostTotal {
  for (const line of lines) {
    total.prompt_tokens += line.prompt_tokens;
    total.cached_tokens += line.cached_tokens;
    total.completion_tokens += line.completion_tokens;
    if (line.cost_usd !== null) total.cost_usd += line.cost_usd;
    else if (
      line.prompt_tokens + line.completion_tokens > 0 &&
      !total.unpriced_models.includes(line.model)
    ) {
      total.unpriced_models.push(line.model);
    }
  }
  return total;
}

/** The sum of priced lines. */
export function costTotalOf(lines: readonly PricedUsage[]): CostTotal {
  return addToCostTotal(emptyCostTotal(), lines);
}

/**
 * A cost for people: `$0.0123`, with enough digits that a cheap run is not shown as $0.00, and
 * `price unknown` for the models without one.
 */
export function formatCost(total: Pick<CostTotal, "cost_usd" | "unpriced_models">): string {
  const dollars = formatUsd(total.cost_usd);
  if (total.unpriced_models.length === 0) return dollars;
  const unknown = `price unknown for ${total.unpriced_models.join(", ")}`;
  return total.cost_usd > 0 ? `${dollars} + ${unknown}` : unknown;
}

/** USD with two decimals from a cent up, two significant digits below (at most 8 decimals). */
export function formatUsd(usd: number): string {
  if (usd === 0) return "$0.00";
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  return `$${usd.toFixed(Math.min(8, 1 - Math.floor(Math.log10(usd))))}`;
}
