import { useMemo } from "react";
import type { EvaluationDetail } from "../../api/types";
import { ChartWithTable } from "../../components/Chart";
import { useI18n } from "../../i18n/i18n";
import { radarSeries } from "../evaluation-detail/chart-data";
import type { QuestionDelta } from "./deltas";

/** The A-vs-B score scatter and both runs' radars overlaid. */
export function CompareCharts({
  deltas,
  base,
  head,
}: {
  deltas: QuestionDelta[];
  base: EvaluationDetail;
  head: EvaluationDetail;
}) {
  const { t } = useI18n();
  const scored = useMemo(
    () => deltas.filter((d) => d.base.score !== null && d.head.score !== null),
    [deltas],
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
              d.kind === "regression"
                ? "rgb(179 38 30)"
                : d.kind === "improvement"
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
  const radarA = radarSeries(base.summary);
  const radarB = radarSeries(head.summary);
  const labels = [...new Set([...radarA.labels, ...radarB.labels])];
  const valueOf = (s: typeof radarA, label: string) => {
    const i = s.labels.indexOf(label);
    return i < 0 ? null : (s.values[i] ?? null);
  };
  const radar = useMemo(
    () => ({
      type: "radar" as const,
      data: {
        labels,
        datasets: [
          {
            label: `A: ${base.name}`,
            data: labels.map((l) => valueOf(radarA, l)),
            borderColor: "rgb(74 85 97)",
            backgroundColor: "rgb(74 85 97 / 20%)",
          },
          {
            label: `B: ${head.name}`,
            data: labels.map((l) => valueOf(radarB, l)),
            borderColor: "rgb(11 92 173)",
            backgroundColor: "rgb(11 92 173 / 20%)",
          },
        ],
      },
      options: { scales: { r: { min: 0, max: 1 } } },
    }),
    [base, head],
  );
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
      {labels.length > 0 && (
        <ChartWithTable
          testId="chart-radar-compare"
          title={t("chart.radar")}
          note={t("chart.radarNote")}
          config={radar}
          table={{
            columns: [t("chart.dimension"), "A", "B"],
            rows: labels.map((l) => [l, valueOf(radarA, l) ?? "—", valueOf(radarB, l) ?? "—"]),
          }}
        />
      )}
    </div>
  );
}
