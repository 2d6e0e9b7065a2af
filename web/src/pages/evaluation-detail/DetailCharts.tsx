import { useMemo } from "react";
import type { EvaluationSummary } from "../../api/types";
import { ChartWithTable } from "../../components/Chart";
import { useI18n } from "../../i18n/i18n";
import { byTypeSeries, primaryDistribution, radarSeries } from "./chart-data";

const BLUE = "rgb(11 92 173)";
const BLUE_FILL = "rgb(11 92 173 / 25%)";
const GREEN = "rgb(30 107 52)";

/** The detail page's charts: loaded on their own so the first page does not carry Chart.js. */
export function DetailCharts({ summary }: { summary: EvaluationSummary }) {
  const { t } = useI18n();
  const radar = useMemo(() => radarSeries(summary), [summary]);
  const histogram = useMemo(() => primaryDistribution(summary), [summary]);
  const byType = useMemo(() => byTypeSeries(summary), [summary]);

  const radarConfig = useMemo(
    () => ({
      type: "radar" as const,
      data: {
        labels: radar.labels,
        datasets: [
          {
            label: t("chart.value"),
            data: radar.values,
            borderColor: BLUE,
            backgroundColor: BLUE_FILL,
          },
        ],
      },
      options: { scales: { r: { min: 0, max: 1 } }, plugins: { legend: { display: false } } },
    }),
    [radar, t],
  );
  const histogramConfig = useMemo(
    () => ({
      type: "bar" as const,
      data: {
        labels: histogram?.series.labels ?? [],
        datasets: [
          { label: t("chart.count"), data: histogram?.series.values ?? [], backgroundColor: BLUE },
        ],
      },
      options: {
        plugins: { legend: { display: false } },
        scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
      },
    }),
    [histogram, t],
  );
  const byTypeConfig = useMemo(
    () => ({
      type: "bar" as const,
      data: {
        labels: byType.labels,
        datasets: [
          { label: t("chart.averageScore"), data: byType.scores, backgroundColor: BLUE },
          { label: t("chart.passRate"), data: byType.passRates, backgroundColor: GREEN },
        ],
      },
      options: { scales: { y: { min: 0, max: 1 } } },
    }),
    [byType, t],
  );

  return (
    <section aria-labelledby="charts-title">
      <h2 id="charts-title">{t("detail.charts")}</h2>
      <div className="charts">
        {radar.labels.length > 0 && (
          <ChartWithTable
            testId="chart-radar"
            title={t("chart.radar")}
            note={t("chart.radarNote")}
            config={radarConfig}
            table={{
              columns: [t("chart.dimension"), t("chart.value")],
              rows: radar.labels.map((l, i) => [l, radar.values[i] ?? 0]),
            }}
          />
        )}
        {histogram && (
          <ChartWithTable
            testId="chart-histogram"
            title={t("chart.histogram")}
            note={t("chart.histogramNote", { judge: histogram.judge })}
            config={histogramConfig}
            table={{
              columns: [t("chart.bin"), t("chart.count")],
              rows: histogram.series.labels.map((l, i) => [l, histogram.series.values[i] ?? 0]),
            }}
          />
        )}
        {byType.labels.length > 0 && (
          <ChartWithTable
            testId="chart-by-type"
            title={t("chart.byType")}
            config={byTypeConfig}
            table={{
              columns: [t("chart.type"), t("chart.averageScore"), t("chart.passRate")],
              rows: byType.labels.map((l, i) => [
                l,
                byType.scores[i] ?? "—",
                byType.passRates[i] ?? "—",
              ]),
            }}
          />
        )}
      </div>
    </section>
  );
}
