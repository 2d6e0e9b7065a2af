import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJs,
  type ChartConfiguration,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  RadarController,
  RadialLinearScale,
  ScatterController,
  Tooltip,
} from "chart.js";
import { useEffect, useId, useRef, useState } from "react";
import { useI18n } from "../i18n/i18n";

// Only the parts of Chart.js the four charts use, so the chart pages stay small.
ChartJs.register(
  BarController,
  BarElement,
  CategoryScale,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  RadarController,
  RadialLinearScale,
  ScatterController,
  Tooltip,
);

export interface ChartTable {
  columns: string[];
  rows: (string | number)[][];
}

/**
 * A chart with its data as a table: the table is visually hidden (screen readers and tests read
 * it) until the person asks to see it.
 */
export function ChartWithTable({
  title,
  note,
  config,
  table,
  testId,
}: {
  title: string;
  note?: string;
  config: ChartConfiguration;
  table: ChartTable;
  testId?: string;
}) {
  const { t } = useI18n();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [shown, setShown] = useState(false);
  const id = useId();

  useEffect(() => {
    if (!canvas.current) return;
    const chart = new ChartJs(canvas.current, {
      ...config,
      options: { animation: false, maintainAspectRatio: false, ...config.options },
    });
    return () => chart.destroy();
  }, [config]);

  return (
    <figure className="chart-box" style={{ margin: 0 }} data-testid={testId}>
      <figcaption>
        <h3 id={`${id}-title`}>{title}</h3>
        {note && (
          <p className="muted" style={{ margin: 0, fontSize: "0.85rem" }}>
            {note}
          </p>
        )}
      </figcaption>
      <div style={{ height: 260 }}>
        <canvas ref={canvas} role="img" aria-labelledby={`${id}-title`} />
      </div>
      <button
        type="button"
        aria-expanded={shown}
        aria-controls={`${id}-table`}
        onClick={() => setShown(!shown)}
      >
        {shown ? t("common.hideTable") : t("common.showTable")}
      </button>
      <div id={`${id}-table`} className={shown ? undefined : "visually-hidden"}>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                {table.columns.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, i) => (
                <tr key={i}>
                  {row.map((cell, j) => (
                    <td key={j}>{typeof cell === "number" ? Number(cell.toFixed(3)) : cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </figure>
  );
}
