import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { ChartWithTable } from "../../components/Chart";
import { ErrorNote } from "../../components/ErrorNote";
import { formatMs, formatPercent, formatScore } from "../../components/format";
import type { MessageKey } from "../../i18n/strings";
import { useI18n } from "../../i18n/i18n";
import { BUCKET_NAMES, type MonitorSearch } from "./monitor-search";
import { type Series, useScopes, useSeries } from "./queries";
import { bucketLabel, type Line, lineChart, lineTable } from "./series-charts";

/**
 * `/production/monitor`: a service's or collection's answers bucketed by minute, hour or day,
 * each beside the period before (gate pass rate, judge scores, feedback, latency, tokens), and a
 * breakdown by model, collection, service or a metadata key. The choices are in the URL.
 */
export function MonitorPage() {
  const { t, language } = useI18n();
  const search = useSearch({ from: "/production/monitor" }) as MonitorSearch;
  const navigate = useNavigate({ from: "/production/monitor" });
  const series = useSeries(search);
  const scopes = useScopes();
  const go = (next: MonitorSearch) => void navigate({ search: next });
  const scopeValue = search.service
    ? `service:${search.service}`
    : search.collection
      ? `collection:${search.collection}`
      : "";

  return (
    <section aria-labelledby="monitor-title">
      <h1 id="monitor-title">{t("mon.title")}</h1>
      <p className="muted">{t("mon.intro")}</p>
      <div className="row" style={{ flexWrap: "wrap", gap: "0.75rem", marginBottom: "1rem" }}>
        <label className="field">
          {t("mon.scope")}
          <select
            value={scopeValue}
            onChange={(e) => {
              const [kind, ...rest] = e.target.value.split(":");
              const name = rest.join(":");
              const { service: _s, collection: _c, ...others } = search;
              go(
                kind === "service"
                  ? { ...others, service: name }
                  : kind === "collection"
                    ? { ...others, collection: name }
                    : others,
              );
            }}
          >
            <option value="">{t("mon.scope.all")}</option>
            {scopes.data?.services.map((name) => (
              <option key={`s-${name}`} value={`service:${name}`}>
                {t("mon.scope.service", { name })}
              </option>
            ))}
            {scopes.data?.collections.map((name) => (
              <option key={`c-${name}`} value={`collection:${name}`}>
                {t("mon.scope.collection", { name })}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t("mon.bucket")}
          <select
            value={search.bucket ?? "hour"}
            onChange={(e) => go({ ...search, bucket: e.target.value as MonitorSearch["bucket"] })}
          >
            {BUCKET_NAMES.map((bucket) => (
              <option key={bucket} value={bucket}>
                {t(`mon.bucket.${bucket}` as MessageKey)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          {t("mon.breakdown")}
          <select
            value={search.breakdown ?? "model"}
            onChange={(e) => go({ ...search, breakdown: e.target.value })}
          >
            {(["model", "collection", "service"] as const).map((by) => (
              <option key={by} value={by}>
                {t(`mon.breakdown.${by}`)}
              </option>
            ))}
            {scopes.data?.breakdown_keys.map((key) => (
              <option key={key} value={`metadata.${key}`}>
                {t("mon.breakdown.meta", { key })}
              </option>
            ))}
          </select>
        </label>
        <div className="row" style={{ alignItems: "flex-end" }}>
          <Link
            to="/production/answers"
            search={search.service ? { service: search.service } : {}}
            data-testid="see-answers"
          >
            {t("mon.seeAnswers")}
          </Link>
        </div>
      </div>
      <ErrorNote error={series.error ?? scopes.error} />
      {series.isPending && <p>{t("common.loading")}</p>}
      {series.data && <SeriesView series={series.data} language={language} />}
    </section>
  );
}

function SeriesView({ series, language }: { series: Series; language: string }) {
  const { t } = useI18n();
  const labels = series.current.map((point) => bucketLabel(point.start, series.bucket, language));
  const pair = (label: string, pick: (p: Series["current"][number]) => number | null): Line[] => [
    { label: `${label} · ${t("mon.now")}`, values: series.current.map(pick) },
    { label: `${label} · ${t("mon.before")}`, values: series.previous.map(pick), before: true },
  ];
  const charts: { id: string; title: string; lines: Line[] }[] = [
    { id: "chart-count", title: t("mon.count"), lines: pair(t("mon.count"), (p) => p.count) },
    {
      id: "chart-pass-rate",
      title: t("mon.passRate"),
      lines: pair(t("mon.passRate"), (p) => p.gate_pass_rate),
    },
    {
      id: "chart-judges",
      title: t("mon.judgeScore"),
      lines: series.judges.flatMap((judge) => [
        { label: t("mon.judgeNamed", { judge: judge.judge }), values: judge.current },
        {
          label: t("mon.judgeNamedBefore", { judge: judge.judge }),
          values: judge.previous,
          before: true,
        },
      ]),
    },
    {
      id: "chart-feedback",
      title: t("mon.feedback"),
      lines: [
        ...pair(t("mon.thumbsUp"), (p) => p.feedback_up),
        ...pair(t("mon.thumbsDown"), (p) => p.feedback_down),
      ],
    },
    {
      id: "chart-latency",
      title: t("mon.latency"),
      lines: pair(t("mon.latency"), (p) => p.latency_mean_ms),
    },
    {
      id: "chart-tokens",
      title: t("mon.tokens"),
      lines: [
        ...pair(t("mon.promptTokens"), (p) => p.prompt_tokens),
        ...pair(t("mon.completionTokens"), (p) => p.completion_tokens),
      ],
    },
  ];
  const { current, previous } = series.totals;
  const totals: [string, string, string][] = [
    [t("mon.count"), String(current.count), String(previous.count)],
    [
      t("mon.passRate"),
      formatPercent(current.gate_pass_rate),
      formatPercent(previous.gate_pass_rate),
    ],
    ...series.judges.map(
      (judge) =>
        [judge.judge, formatScore(judge.mean.current), formatScore(judge.mean.previous)] as [
          string,
          string,
          string,
        ],
    ),
    [t("mon.thumbsUp"), String(current.feedback_up), String(previous.feedback_up)],
    [t("mon.thumbsDown"), String(current.feedback_down), String(previous.feedback_down)],
    [t("mon.latency"), formatMs(current.latency_mean_ms), formatMs(previous.latency_mean_ms)],
    [t("mon.latencyP95"), formatMs(current.latency_p95_ms), formatMs(previous.latency_p95_ms)],
    [t("mon.promptTokens"), String(current.prompt_tokens), String(previous.prompt_tokens)],
    [
      t("mon.completionTokens"),
      String(current.completion_tokens),
      String(previous.completion_tokens),
    ],
  ];
  return (
    <>
      <h2>{t("mon.totals")}</h2>
      <div className="table-scroll">
        <table data-testid="monitor-totals">
          <thead>
            <tr>
              <th scope="col">{t("mon.metric")}</th>
              <th scope="col">{t("mon.now")}</th>
              <th scope="col">{t("mon.before")}</th>
            </tr>
          </thead>
          <tbody>
            {totals.map(([name, now, before]) => (
              <tr key={name}>
                <th scope="row">{name}</th>
                <td>{now}</td>
                <td>{before}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {current.count === 0 && <p className="muted">{t("mon.noAnswers")}</p>}
      {series.judges.length === 0 && <p className="muted">{t("mon.noJudges")}</p>}
      <div className="charts">
        {charts
          .filter((chart) => chart.lines.length > 0)
          .map((chart) => (
            <ChartWithTable
              key={chart.id}
              testId={chart.id}
              title={chart.title}
              config={lineChart(labels, chart.lines)}
              table={lineTable(t("mon.bucketStart"), labels, chart.lines)}
            />
          ))}
      </div>
      <h2>
        {t("mon.breakdown")}:{" "}
        {series.breakdown.by.startsWith("metadata.")
          ? t("mon.breakdown.meta", { key: series.breakdown.by.slice("metadata.".length) })
          : t(`mon.breakdown.${series.breakdown.by}` as MessageKey)}
      </h2>
      <div className="table-scroll">
        <table data-testid="monitor-breakdown">
          <thead>
            <tr>
              <th scope="col">{t("mon.group")}</th>
              <th scope="col">{t("mon.count")}</th>
              <th scope="col">{t("mon.passRate")}</th>
              <th scope="col">{t("mon.latency")}</th>
              <th scope="col">{t("mon.thumbsDown")}</th>
            </tr>
          </thead>
          <tbody>
            {series.breakdown.rows.map((row) => (
              <tr key={row.value} data-testid="breakdown-row" data-value={row.value}>
                <th scope="row">{row.value || t("mon.none")}</th>
                <td>
                  {row.current.count} <span className="muted">({row.previous.count})</span>
                </td>
                <td>
                  {formatPercent(row.current.gate_pass_rate)}{" "}
                  <span className="muted">({formatPercent(row.previous.gate_pass_rate)})</span>
                </td>
                <td>{formatMs(row.current.latency_mean_ms)}</td>
                <td>{row.current.feedback_down}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
