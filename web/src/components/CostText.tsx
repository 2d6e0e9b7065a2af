import type { RunCost } from "../api/types";
import { useI18n } from "../i18n/i18n";
import { formatUsd } from "./format";

/** What was spent: dollars of the priced tokens, and the models whose price is unknown. */
export interface SpentCost {
  cost_usd: number;
  /** The models without a price, when known by name. */
  unpriced_models?: readonly string[];
  /** Some tokens have no price, the models unnamed (a results-list row). */
  price_unknown?: boolean;
}

/**
 * A cost as people read it, wherever a run's or a result's cost is shown: dollars of what is
 * priced and what has no price; `null` when no LLM call was made, which says so rather than
 * pricing nothing at $0.00 (a real $0.00 of priced calls still reads as dollars).
 */
export function CostText({ cost }: { cost: SpentCost | null }) {
  const { t } = useI18n();
  if (cost === null) {
    return (
      <span className="muted" data-no-llm-calls="true">
        {t("cost.noCalls")}
      </span>
    );
  }
  const models = cost.unpriced_models ?? [];
  const unknown = models.length > 0 || cost.price_unknown === true;
  return (
    <span>
      {(!unknown || cost.cost_usd > 0) && formatUsd(cost.cost_usd)}
      {unknown && (
        <span className="muted">
          {cost.cost_usd > 0 ? " + " : ""}
          {models.length > 0
            ? t("cost.priceUnknown", { models: models.join(", ") })
            : t("cost.priceUnknownShort")}
        </span>
      )}
    </span>
  );
}

/** The bot's share of a run's cost; null when the bot made no LLM call (supplied answers, an HTTP bot). */
export function botCostOf(cost: RunCost): SpentCost | null {
  return cost.by_model.some((line) => line.part === "bot") ? cost.bot : null;
}
