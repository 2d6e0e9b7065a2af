import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api, must } from "../../api/client";
import type { EvaluationSummary } from "../../api/types";
import { ChartWithTable } from "../../components/Chart";
import { useI18n } from "../../i18n/i18n";
import { dimensionName, judgeKindName, questionTypeName } from "../../i18n/name-strings";
import { chartsKey } from "./queries";

const BLUE = "rgb(11 92 173)";
const BLUE_FILL = "rgb(11 92 173 / 25%)";
const GREEN = "rgb(30 107 52)";

/**
 * The detail page's charts from the run's chart data (the server bins every scored result):
 * loaded on their own so the first page does not carry Chart.js. The summary refreshes them while
 * the run moves.
 */
export function DetailCharts({
  evaluationId,
  summary,
}: {
  evaluationId: string;
  summary: EvaluationSummary;
}) {
  const { t, say } = useI18n();
  const charts = useQuery({
    queryKey: [...chartsKey(evaluationId), summary.completed],
    queryFn: () =>
      must(api.GET("/api/v1/evaluations/{id}/charts", { params: { path: { id: evaluationId } } })),
    placeholderData: (previous) => previous,
  });
  const data = charts.data;

  const radar = useMemo(() => {
    const points = data?.radar ?? [];
    const labels = points.map((p) =>
      points.filter((q) => q.dimension === p.dimension).length > 1
        ? `${dimensionName(p.dimension, t)} (${judgeKindName(p.judge, t)})`
        : dimensionName(p.dimension, t),
    );
    return {
      labels,
      points,
      config: {
        type: "radar" as const,
        data: {
          labels,
          datasets: [
            {
              label: t("chart.value"),
              data: points.map((p) => p.value),
              borderColor: BLUE,
              backgroundColor: BLUE_FILL,
            },
          ],
        },
        options: { scales: { r: { min: 0, max: 1 } }, plugins: { legend: { display: false } } },
      },
    };
  }, [data, t]);
  const histogram = useMemo(() => {
    const bins = data?.histogram.bins ?? [];
    const labels = bins.map((b) => `${b.from.toFixed(1)}–${b.to.toFixed(1)}`);
    return {
      labels,
      bins,
      config: {
        type: "bar" as const,
        data: {
          labels,
          datasets: [
            { label: t("chart.count"), data: bins.map((b) => b.count), backgroundColor: BLUE },
          ],
        },
        options: {
          plugins: { legend: { display: false } },
          scales: { y: { beginAtZero: true, ticks: { precision: 0 } } },
        },
      },
    };
  }, [data, t]);
  const byType = useMemo(() => {
    const rows = data?.by_question_type ?? [];
    return {
      rows,
      config: {
        type: "bar" as const,
        data: {
          labels: rows.map((r) => questionTypeName(r.question_type, t)),
          datasets: [
            {
              label: t("chart.averageScore"),
              data: rows.map((r) => r.average_score),
              backgroundColor: BLUE,
            },
            {
              label: t("chart.passRate"),
              data: rows.map((r) => r.pass_rate),
              backgroundColor: GREEN,
            },
          ],
        },
        options: { scales: { y: { min: 0, max: 1 } } },
      },
    };
  }, [data, t]);

  if (!data) return null;
  return (
    <section aria-labelledby="charts-title">
      <h2 id="charts-title">{t("detail.charts")}</h2>
      <div className="charts">
        {radar.points.length > 0 && (
          <ChartWithTable
            testId="chart-radar"
            title={t("chart.radar")}
            note={t("chart.radarNote")}
            config={radar.config}
            table={{
              columns: [t("chart.dimension"), t("chart.judge"), t("chart.mean"), t("chart.value")],
              rows: radar.points.map((p) => [
                dimensionName(p.dimension, t),
                judgeKindName(p.judge, t),
                `${Number(p.mean.toFixed(3))} (${p.scale})`,
                p.value,
              ]),
            }}
          />
        )}
        {data.histogram.count > 0 && (
          <ChartWithTable
            testId="chart-histogram"
            title={t("chart.histogram")}
            note={`${say(data.histogram.binned)}${data.histogram.not_scored > 0 ? ` ${t("chart.notBinned", { n: data.histogram.not_scored })}` : ""}`}
            config={histogram.config}
            table={{
              columns: [t("chart.bin"), t("chart.count")],
              rows: histogram.bins.map((b, i) => [histogram.labels[i] ?? "", b.count]),
            }}
          />
        )}
        {byType.rows.length > 0 && (
          <ChartWithTable
            testId="chart-by-type"
            title={t("chart.byType")}
            config={byType.config}
            table={{
              columns: [t("chart.type"), t("chart.averageScore"), t("chart.passRate")],
              rows: byType.rows.map((r) => [
                questionTypeName(r.question_type, t),
                r.average_score ?? "—",
                r.pass_rate ?? "—",
              ]),
            }}
          />
        )}
      </div>
    </section>
  );
}
