import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import { api, must } from "../../api/client";
import { ChartWithTable } from "../../components/Chart";
import { formatDate } from "../../components/format";
import { useI18n } from "../../i18n/i18n";

/** The score and pass rate of every run on a question set, oldest first. */
export function QuestionSetTrend({ questionSetId }: { questionSetId: string }) {
  const { t, language } = useI18n();
  const trend = useQuery({
    queryKey: ["question-set", questionSetId, "trend"],
    queryFn: () =>
      must(
        api.GET("/api/v1/question-sets/{id}/trend", { params: { path: { id: questionSetId } } }),
      ),
  });
  // Runs with something scored, oldest first.
  const points = useMemo(
    () =>
      (trend.data?.items ?? [])
        .filter((r) => r.scored > 0)
        .sort((a, b) => a.gmt_created.localeCompare(b.gmt_created)),
    [trend.data],
  );
  const config = useMemo(
    () => ({
      type: "line" as const,
      data: {
        // Each point names the version of the set its run used: a score moves with the questions too.
        labels: points.map(
          (p) =>
            formatDate(p.gmt_created, language) +
            (p.question_set_version === null
              ? ""
              : ` · ${t("versions.label", { n: p.question_set_version })}`),
        ),
        datasets: [
          {
            label: t("chart.averageScore"),
            data: points.map((p) => p.average_score),
            borderColor: "rgb(11 92 173)",
            backgroundColor: "rgb(11 92 173)",
          },
          {
            label: t("chart.passRate"),
            data: points.map((p) => p.pass_rate),
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
        columns: [
          t("chart.run"),
          t("versions.number"),
          t("chart.created"),
          t("chart.averageScore"),
          t("chart.passRate"),
        ],
        rows: points.map((p) => [
          p.name,
          p.question_set_version === null
            ? t("versions.beforeVersions")
            : t("versions.label", { n: p.question_set_version }),
          formatDate(p.gmt_created, language),
          p.average_score ?? "—",
          p.pass_rate ?? "—",
        ]),
      }}
    />
  );
}
