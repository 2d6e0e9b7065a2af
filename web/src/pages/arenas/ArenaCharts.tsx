import type { ChartConfiguration } from "chart.js";
import { useMemo } from "react";
import { ChartWithTable } from "../../components/Chart";
import { useI18n } from "../../i18n/i18n";
import { dimensionName } from "../../i18n/name-strings";
import { heatColor, pointsShare } from "./heatmap";
import type { ArenaResults } from "./queries";

const BLUE = "rgb(11 92 173)";
const BLUE_FILL = "rgb(11 92 173 / 35%)";
const ORANGE = "rgb(166 77 0)";
const ORANGE_FILL = "rgb(166 77 0 / 30%)";
const PALETTE = [
  "rgb(11 92 173)",
  "rgb(166 77 0)",
  "rgb(30 107 52)",
  "rgb(128 40 150)",
  "rgb(170 30 60)",
  "rgb(0 110 120)",
];
const fixed = (x: number | undefined) => (x === undefined ? Number.NaN : Number(x.toFixed(1)));

/** Ratings with their 95% intervals as bars, raw and length-controlled side by side. */
export function RatingsChart({ results }: { results: ArenaResults }) {
  const { t } = useI18n();
  const config = useMemo(() => {
    const c = results.contestants;
    return {
      type: "bar",
      data: {
        labels: c.map((x) => x.name),
        datasets: [
          {
            label: `${t("arena.raw")} ${t("arena.ci")}`,
            data: c.map((x) => x.ci),
            backgroundColor: BLUE_FILL,
            borderColor: BLUE,
            borderWidth: 1,
          },
          {
            label: `${t("arena.lcRating")} ${t("arena.ci")}`,
            data: c.map((x) => x.length_controlled.ci),
            backgroundColor: ORANGE_FILL,
            borderColor: ORANGE,
            borderWidth: 1,
          },
          {
            type: "line",
            label: `${t("arena.raw")} ${t("arena.rating")}`,
            data: c.map((x) => x.rating),
            showLine: false,
            pointRadius: 5,
            backgroundColor: BLUE,
            borderColor: BLUE,
          },
          {
            type: "line",
            label: `${t("arena.lcRating")} ${t("arena.rating")}`,
            data: c.map((x) => x.length_controlled.rating),
            showLine: false,
            pointRadius: 5,
            pointStyle: "rectRot",
            backgroundColor: ORANGE,
            borderColor: ORANGE,
          },
        ],
      },
      options: {
        indexAxis: "y",
        scales: { x: { title: { display: true, text: t("arena.rating") } } },
      },
    } as unknown as ChartConfiguration;
  }, [results, t]);
  return (
    <ChartWithTable
      testId="chart-ratings"
      title={t("arena.ratings")}
      note={t("arena.ratingsNote")}
      config={config}
      table={{
        columns: [
          t("arena.contestantCol"),
          t("arena.rating"),
          t("arena.ci"),
          t("arena.lcRating"),
          t("arena.lcCi"),
        ],
        rows: results.contestants.map((x) => [
          x.name,
          fixed(x.rating),
          `[${fixed(x.ci[0])}, ${fixed(x.ci[1])}]`,
          fixed(x.length_controlled.rating),
          `[${fixed(x.length_controlled.ci[0])}, ${fixed(x.length_controlled.ci[1])}]`,
        ]),
      }}
    />
  );
}

/**
 * The win/tie/loss matrix as a heat map. It is drawn as a table, so the data a screen reader
 * needs is the chart itself: each cell says its numbers and its label says whose they are.
 */
export function WinMatrix({ results }: { results: ArenaResults }) {
  const { t } = useI18n();
  const { names, cells } = results.matrix;
  return (
    <figure className="chart-box" style={{ margin: 0 }} data-testid="win-matrix">
      <figcaption>
        <h3 id="win-matrix-title">{t("arena.matrix")}</h3>
        <p className="muted" style={{ margin: 0, fontSize: "0.85rem" }}>
          {t("arena.matrixNote")}
        </p>
      </figcaption>
      <div className="table-scroll">
        <table aria-labelledby="win-matrix-title">
          <thead>
            <tr>
              <td />
              {names.map((n) => (
                <th key={n} scope="col">
                  {n}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {names.map((row, i) => (
              <tr key={row}>
                <th scope="row">{row}</th>
                {names.map((column, j) => {
                  const cell = cells[i]?.[j];
                  if (!cell)
                    return (
                      <td key={column} aria-label="—">
                        ·
                      </td>
                    );
                  const share = pointsShare(cell);
                  return (
                    <td
                      key={column}
                      data-testid="matrix-cell"
                      title={t("arena.matrixCell", { row, column, ...cell })}
                      style={{ background: heatColor(share), color: "#111", textAlign: "center" }}
                    >
                      {`${cell.wins}-${cell.ties}-${cell.losses}`}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** The rubric dimensions (seed 002's) per contestant, one outline each. */
export function ArenaRadar({ results }: { results: ArenaResults }) {
  const { t } = useI18n();
  const dimensions = useMemo(
    () => [...new Set(results.contestants.flatMap((c) => Object.keys(c.radar)))],
    [results],
  );
  const config = useMemo(
    () =>
      ({
        type: "radar",
        data: {
          labels: dimensions.map((d) => dimensionName(d, t)),
          datasets: results.contestants.map((c, i) => ({
            label: c.name,
            data: dimensions.map((d) => c.radar[d] ?? null),
            borderColor: PALETTE[i % PALETTE.length],
            backgroundColor: "transparent",
          })),
        },
        options: { scales: { r: { min: 0, max: 10 } } },
      }) as unknown as ChartConfiguration,
    [results, dimensions, t],
  );
  if (!results.contestants.some((c) => Object.values(c.radar).some((v) => v !== null))) return null;
  return (
    <ChartWithTable
      testId="chart-arena-radar"
      title={t("arena.radar")}
      note={t("arena.radarNote")}
      config={config}
      table={{
        columns: [t("arena.contestantCol"), ...dimensions.map((d) => dimensionName(d, t))],
        rows: results.contestants.map((c) => [
          c.name,
          ...dimensions.map((d) => {
            const v = c.radar[d];
            return v === null || v === undefined ? "—" : Number(v.toFixed(2));
          }),
        ]),
      }}
    />
  );
}
