import { useMemo } from "react";
import type { components } from "../../api/schema";
import { ChartWithTable } from "../../components/Chart";
import { useI18n } from "../../i18n/i18n";
import { sharedDimensions } from "./shared-dimensions";

type Comparison = components["schemas"]["EvaluationComparison"];

const label = (p: { dimension: string; judge: string }) => `${p.dimension} (${p.judge})`;

/** The A-vs-B score scatter and both runs' radars overlaid. */
export function CompareCharts({ comparison }: { comparison: Comparison }) {
  const { t } = useI18n();
  const scored = useMemo(
    () => comparison.items.filter((d) => d.base.score !== null && d.head.score !== null),
    [comparison],
  );
  const scatter = useMemo(
    () => ({
      type: "scatter" as const,
      data: {
        datasets: [
          {
            label: "A → B",
            data: scored.map((d) => ({ x: d.base.score ?? 0, y: d.head.score ?? 0 })),
            backgroundColor: scored.map((d) =>
              d.change === "regression"
                ? "rgb(179 38 30)"
                : d.change === "improvement"
                  ? "rgb(30 107 52)"
                  : "rgb(74 85 97)",
            ),
          },
        ],
      },
      options: {
        scales: {
          x: { min: 0, max: 1, title: { display: true, text: "A" } },
          y: { min: 0, max: 1, title: { display: true, text: "B" } },
        },
        plugins: { legend: { display: false } },
      },
    }),
    [scored],
  );
  const radar = useMemo(() => {
    // Only what both runs measured: a dimension one run lacks has no value, not a 0.
    const { labels, onlyBase, onlyHead } = sharedDimensions(
      comparison.base.radar.map(label),
      comparison.head.radar.map(label),
    );
    const valueOf = (points: Comparison["base"]["radar"], l: string) =>
      points.find((p) => label(p) === l)?.value ?? 0;
    const a = labels.map((l) => valueOf(comparison.base.radar, l));
    const b = labels.map((l) => valueOf(comparison.head.radar, l));
    return {
      labels,
      a,
      b,
      onlyBase,
      onlyHead,
      config: {
        type: "radar" as const,
        data: {
          labels,
          datasets: [
            {
              label: `A: ${comparison.base.evaluation.name}`,
              data: a,
              borderColor: "rgb(74 85 97)",
              backgroundColor: "rgb(74 85 97 / 20%)",
            },
            {
              label: `B: ${comparison.head.evaluation.name}`,
              data: b,
              borderColor: "rgb(11 92 173)",
              backgroundColor: "rgb(11 92 173 / 20%)",
            },
          ],
        },
        options: { scales: { r: { min: 0, max: 1 } } },
      },
    };
  }, [comparison]);
  const radarNote = [
    t("chart.radarNote"),
    ...(radar.onlyBase.length + radar.onlyHead.length > 0 ? [t("compare.radarShared")] : []),
    ...(radar.onlyBase.length > 0
      ? [t("compare.radarOnly", { run: "A", dimensions: radar.onlyBase.join(", ") })]
      : []),
    ...(radar.onlyHead.length > 0
      ? [t("compare.radarOnly", { run: "B", dimensions: radar.onlyHead.join(", ") })]
      : []),
  ].join(" ");
  return (
    <div className="charts">
      <ChartWithTable
        testId="chart-scatter"
        title={t("chart.scatter")}
        config={scatter}
        table={{
          columns: ["#", t("card.question"), "A", "B"],
          rows: scored.map((d) => [
            d.base.position + 1,
            d.question_text,
            d.base.score ?? 0,
            d.head.score ?? 0,
          ]),
        }}
      />
      {radar.labels.length > 0 && (
        <ChartWithTable
          testId="chart-radar-compare"
          title={t("chart.radar")}
          note={radarNote}
          config={radar.config}
          table={{
            columns: [t("chart.dimension"), "A", "B"],
            rows: radar.labels.map((l, i) => [l, radar.a[i] ?? 0, radar.b[i] ?? 0]),
          }}
        />
      )}
    </div>
  );
}
