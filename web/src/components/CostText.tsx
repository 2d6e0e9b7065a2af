import type { CostTotal } from "../api/types";
import { useI18n } from "../i18n/i18n";
import { formatUsd } from "./format";

/** A cost as people read it: dollars of what is priced, and the models whose price is unknown. */
export function CostText({ cost }: { cost: Pick<CostTotal, "cost_usd" | "unpriced_models"> }) {
  const { t } = useI18n();
  const unknown = cost.unpriced_models.length > 0;
  return (
    <span>
      {(!unknown || cost.cost_usd > 0) && formatUsd(cost.cost_usd)}
      {unknown && (
        <span className="muted">
          {cost.cost_usd > 0 ? " + " : ""}
          {t("cost.priceUnknown", { models: cost.unpriced_models.join(", ") })}
        </span>
      )}
    </span>
  );
}
