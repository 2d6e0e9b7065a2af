import type { RunCost } from "../../api/types";
import { botCostOf, CostText } from "../../components/CostText";
import { formatUsd } from "../../components/format";
import { useI18n } from "../../i18n/i18n";

/**
 * What the run's LLM calls cost: in total, the bot's, each judge's, per question, and a table by
 * part, role and model. Tokens without a price are shown as such, never priced by a guess.
 */
export function CostPanel({ cost, limit }: { cost: RunCost; limit: number | null }) {
  const { t } = useI18n();
  const judges = Object.entries(cost.judges);
  const cacheHits = cost.by_model.reduce((sum, line) => sum + (line.cache_hits ?? 0), 0);
  const cacheHitTokens = cost.by_model.reduce((sum, line) => sum + (line.cache_hit_tokens ?? 0), 0);
  return (
    <section aria-labelledby="cost-title" data-testid="cost-panel">
      <h2 id="cost-title">{t("cost.title")}</h2>
      {cost.by_model.length === 0 ? (
        <p className="muted">{t("cost.none")}</p>
      ) : (
        <>
          <div className="grid">
            <div className="stat">
              <div className="label">{t("cost.total")}</div>
              <div className="value" data-testid="cost-total">
                <CostText cost={cost.total} />
              </div>
            </div>
            <div className="stat">
              <div className="label">{t("cost.bot")}</div>
              <div className="value" data-testid="cost-bot">
                <CostText cost={botCostOf(cost)} />
              </div>
            </div>
            {judges.map(([judge, total]) => (
              <div className="stat" key={judge}>
                <div className="label">{t("cost.judge", { judge })}</div>
                <div className="value" data-testid={`cost-judge-${judge}`}>
                  <CostText cost={total} />
                </div>
              </div>
            ))}
          </div>
          <p className="muted" data-testid="cost-per-question">
            {t("cost.perQuestion", {
              mean: formatUsd(cost.per_question.mean_usd),
              max: formatUsd(cost.per_question.max_usd),
            })}
            {limit !== null && ` · ${t("cost.limit", { limit: formatUsd(limit) })}`}
          </p>
          <table data-testid="cost-table">
            <thead>
              <tr>
                <th>{t("cost.part")}</th>
                <th>{t("cost.role")}</th>
                <th>{t("cost.model")}</th>
                <th className="num">{t("cost.calls")}</th>
                <th className="num">{t("cost.prompt")}</th>
                <th className="num">{t("cost.cached")}</th>
                <th className="num">{t("cost.completion")}</th>
                <th className="num">{t("cost.usd")}</th>
              </tr>
            </thead>
            <tbody>
              {cost.by_model.map((line) => (
                <tr key={`${line.part} ${line.judge ?? ""} ${line.role} ${line.model}`}>
                  <td>
                    {line.part === "bot"
                      ? t("cost.bot")
                      : t("cost.judge", { judge: line.judge ?? "" })}
                  </td>
                  <td>{line.role}</td>
                  <td>{line.model}</td>
                  <td className="num">{line.calls}</td>
                  <td className="num">{line.prompt_tokens}</td>
                  <td className="num">{line.cached_tokens}</td>
                  <td className="num">{line.completion_tokens}</td>
                  <td className="num">
                    {line.cost_usd === null
                      ? t("cost.priceUnknown", { models: line.model })
                      : formatUsd(line.cost_usd)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {cacheHits > 0 && (
            <p className="muted" data-testid="cost-cache-hits">
              {t("cost.cacheHits", { n: cacheHits, tokens: cacheHitTokens })}
            </p>
          )}
        </>
      )}
    </section>
  );
}
