import { useMemo } from "react";
import { ChartWithTable } from "../../components/Chart";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";
import { useEvaluations } from "../evaluation-list/queries";

/** The score and pass rate of every run on a question set, oldest first. */
export function QuestionSetTrend({ questionSetId }: { questionSetId: string }) {
  const { t, language } = useI18n();
  const runs = useEvaluations();
  const points = useMemo(
    () =>
      (runs.data ?? [])
        .filter((r) => r.question_set_id === questionSetId && r.scored_questions > 0)
        .sort((a, b) => a.gmt_created.localeCompare(b.gmt_created)),
    [runs.data, questionSetId],
  );
  const config = useMemo(
    () => ({
      type: "line" as const,
      data: {
        labels: points.map((p) => formatDate(p.gmt_created, language)),
        datasets: [
          {
            label: t("chart.averageScore"),
            data: points.map((p) => p.average_score),
            borderColor: "rgb(11 92 173)",
            backgroundColor: "rgb(11 92 173)",
          },
          {
            label: t("chart.passRate"),
            data: points.map((p) => (p as { pass_rate?: number | null }).pass_rate ?? null),
            borderColor: "rgb(30 107 52)",
            backgroundColor: "rgb(30 107 52)",
          },
        ],
      },
      options: { scales: { y: { min: 0, max: 1 } } },
    }),
    [points, language, t],
  );
  if (points.length === 0) return <p className="muted">{t("qs.noRuns")}</p>;
  return (
    <ChartWithTable
      testId="chart-trend"
      title={t("chart.trend")}
      config={config}
      table={{
        columns: [t("chart.run"), t("chart.created"), t("chart.averageScore"), t("chart.passRate")],
        rows: points.map((p) => [
          p.name,
          formatDate(p.gmt_created, language),
          p.average_score ?? "—",
          (p as { pass_rate?: number | null }).pass_rate ?? "—",
        ]),
      }}
    />
  );
}
