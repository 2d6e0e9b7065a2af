import type { RunCost } from "../../api/types";
import { botCostOf, CostText } from "../../components/CostText";
import { formatUsd } from "../../components/format";
import { useI18n } from "../../i18n/i18n";

interface ComparedCost {
  evaluation: { name: string };
  summary: { cost: RunCost };
}

/**
 * The two runs' costs side by side: total, the bot's, each judge's, and per question. A run (or a
 * part of one) that made no LLM call says so rather than showing a price of $0.00.
 */
export function CompareCost({ base, head }: { base: ComparedCost; head: ComparedCost }) {
  const { t } = useI18n();
  const runs = [
    { label: "A", run: base },
    { label: "B", run: head },
  ];
  const judges = [
    ...new Set([
      ...Object.keys(base.summary.cost.judges),
      ...Object.keys(head.summary.cost.judges),
    ]),
  ].sort();
  return (
    <section aria-labelledby="compare-cost-title" data-testid="compare-cost">
      <h2 id="compare-cost-title">{t("cost.compareTitle")}</h2>
      <div className="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">{t("cost.compareRun")}</th>
              <th scope="col">{t("cost.total")}</th>
              <th scope="col">{t("cost.bot")}</th>
              {judges.map((judge) => (
                <th scope="col" key={judge}>
                  {t("cost.judge", { judge })}
                </th>
              ))}
              <th scope="col">{t("cost.meanPerQuestion")}</th>
            </tr>
          </thead>
          <tbody>
            {runs.map(({ label, run }) => {
              const cost = run.summary.cost;
              const judge = (name: string) => cost.judges[name];
              const name = (
                <th scope="row">
                  {label}: {run.evaluation.name}
                </th>
              );
              if (cost.by_model.length === 0) {
                return (
                  <tr key={label} data-no-llm-calls="true">
                    {name}
                    <td colSpan={judges.length + 3}>
                      <CostText cost={null} />
                    </td>
                  </tr>
                );
              }
              return (
                <tr key={label}>
                  {name}
                  <td>
                    <CostText cost={cost.total} />
                  </td>
                  <td>
                    <CostText cost={botCostOf(cost)} />
                  </td>
                  {judges.map((name) => {
                    const total = judge(name);
                    return <td key={name}>{total ? <CostText cost={total} /> : "—"}</td>;
                  })}
                  <td>{formatUsd(cost.per_question.mean_usd)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
