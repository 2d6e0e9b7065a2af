import { type ArenaReport, arenaSections } from "./report.js";
import { RADAR_DIMENSIONS } from "./collect.js";

// The arena as one self-contained HTML file (seed 002 section 3.2's "experiment charts"): inline
// SVG charts and CSS, no script, no external asset, so it can be mailed or attached as it is.

const PALETTE = [
  "#1f77b4",
  "#d62728",
  "#2ca02c",
  "#9467bd",
  "#ff7f0e",
  "#17becf",
  "#8c564b",
  "#e377c2",
  "#7f7f7f",
  "#bcbd22",
  "#393b79",
  "#637939",
];

function escape(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

const fixed = (x: number, digits = 1) => x.toFixed(digits);

/** Ratings as dots with their 95% interval as a bar; the 1000 line marks the average. */
function ratingsChart(report: ArenaReport): string {
  const cs = report.results.contestants;
  const values = cs.flatMap((c) => [c.ci[0], c.ci[1], c.rating, 1000]);
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max(10, (hi - lo) * 0.08);
  const [min, max] = [lo - pad, hi + pad];
  const width = 640;
  const left = 150;
  const plot = width - left - 20;
  const row = 28;
  const height = cs.length * row + 40;
  const x = (v: number) => left + ((v - min) / (max - min)) * plot;
  const items = cs.map((c, i) => {
    const y = 20 + i * row + row / 2;
    return `<text x="${left - 8}" y="${y + 4}" text-anchor="end">${escape(c.name)}</text>
<line x1="${fixed(x(c.ci[0]))}" x2="${fixed(x(c.ci[1]))}" y1="${y}" y2="${y}" stroke="${PALETTE[i % PALETTE.length]}" stroke-width="6" stroke-linecap="round" opacity="0.45"/>
<circle cx="${fixed(x(c.rating))}" cy="${y}" r="5" fill="${PALETTE[i % PALETTE.length]}"><title>${escape(`${c.name}: ${fixed(c.rating)} [${fixed(c.ci[0])}, ${fixed(c.ci[1])}]`)}</title></circle>
<text x="${fixed(x(c.ci[1]) + 6)}" y="${y + 4}" class="small">${fixed(c.rating)}</text>`;
  });
  const ticks = 5;
  const axis = Array.from({ length: ticks + 1 }, (_, k) => {
    const v = min + ((max - min) * k) / ticks;
    return `<text x="${fixed(x(v))}" y="${height - 4}" text-anchor="middle" class="small">${fixed(v, 0)}</text>`;
  });
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Ratings with 95% intervals">
<line x1="${fixed(x(1000))}" x2="${fixed(x(1000))}" y1="10" y2="${height - 18}" stroke="#999" stroke-dasharray="4 3"/>
${items.join("\n")}
${axis.join("\n")}
</svg>`;
}

/** The win matrix as a heat map: each cell is the row's points share against the column. */
function heatMap(report: ArenaReport): string {
  const { names, cells } = report.results.matrix;
  const size = 56;
  const left = 150;
  const top = 110;
  const width = left + names.length * size + 20;
  const height = top + names.length * size + 20;
  const out: string[] = [];
  names.forEach((name, j) => {
    const cx = left + j * size + size / 2;
    out.push(
      `<text transform="translate(${cx},${top - 8}) rotate(-45)" class="small">${escape(name)}</text>`,
    );
  });
  names.forEach((name, i) => {
    const y = top + i * size;
    out.push(
      `<text x="${left - 8}" y="${y + size / 2 + 4}" text-anchor="end">${escape(name)}</text>`,
    );
    names.forEach((_, j) => {
      const cell = cells[i]?.[j];
      const x = left + j * size;
      if (!cell) {
        out.push(`<rect x="${x}" y="${y}" width="${size - 2}" height="${size - 2}" fill="#eee"/>`);
        return;
      }
      const games = cell.wins + cell.ties + cell.losses;
      const share = games === 0 ? 0.5 : (cell.wins + cell.ties / 2) / games;
      // Blue when the row wins, red when it loses, white at even.
      const t = Math.abs(share - 0.5) * 2;
      const [r, g, b] =
        share >= 0.5 ? [255 - 200 * t, 255 - 130 * t, 255] : [255, 255 - 170 * t, 255 - 170 * t];
      out.push(
        `<rect x="${x}" y="${y}" width="${size - 2}" height="${size - 2}" fill="rgb(${r.toFixed(0)},${g.toFixed(0)},${b.toFixed(0)})"><title>${escape(`${name} vs ${names[j]}: ${cell.wins} wins, ${cell.ties} ties, ${cell.losses} losses`)}</title></rect>`,
        `<text x="${x + size / 2 - 1}" y="${y + size / 2 + 4}" text-anchor="middle" class="small">${(share * 100).toFixed(0)}%</text>`,
      );
    });
  });
  return `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="Win matrix heat map">${out.join("\n")}</svg>`;
}

/** Seed 002's Radar Metrics: accuracy, completeness and clarity (1-10) per contestant. */
function radarChart(report: ArenaReport): string {
  const cs = report.results.contestants.filter((c) =>
    RADAR_DIMENSIONS.some((k) => c.radar[k] !== null),
  );
  if (cs.length === 0)
    return "<p>No rubric dimensions: run the contestants with the rubric or offline judge.</p>";
  const size = 360;
  const center = size / 2;
  const radius = 120;
  const axes = RADAR_DIMENSIONS.map((key, k) => {
    const angle = -Math.PI / 2 + (2 * Math.PI * k) / RADAR_DIMENSIONS.length;
    return { key, dx: Math.cos(angle), dy: Math.sin(angle) };
  });
  const point = (dx: number, dy: number, value: number) =>
    `${fixed(center + dx * radius * (value / 10))},${fixed(center + dy * radius * (value / 10))}`;
  const grid = [2, 4, 6, 8, 10].map(
    (level) =>
      `<polygon points="${axes.map((a) => point(a.dx, a.dy, level)).join(" ")}" fill="none" stroke="#ddd"/>`,
  );
  const spokes = axes.map(
    (a) =>
      `<line x1="${center}" y1="${center}" x2="${point(a.dx, a.dy, 10).replace(",", '" y2="')}" stroke="#ccc"/><text x="${fixed(center + a.dx * (radius + 18))}" y="${fixed(center + a.dy * (radius + 18) + 4)}" text-anchor="middle">${a.key}</text>`,
  );
  const shapes = cs.map((c) => {
    const i = report.results.contestants.indexOf(c);
    const color = PALETTE[i % PALETTE.length];
    return `<polygon points="${axes.map((a) => point(a.dx, a.dy, c.radar[a.key] ?? 0)).join(" ")}" fill="${color}" fill-opacity="0.15" stroke="${color}" stroke-width="2"><title>${escape(`${c.name}: ${RADAR_DIMENSIONS.map((k) => `${k} ${c.radar[k]?.toFixed(2) ?? "-"}`).join(", ")}`)}</title></polygon>`;
  });
  const legend = cs.map((c, n) => {
    const i = report.results.contestants.indexOf(c);
    return `<rect x="10" y="${10 + n * 18}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/><text x="26" y="${19 + n * 18}" class="small">${escape(c.name)}</text>`;
  });
  return `<svg viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" role="img" aria-label="Rubric dimensions radar">${grid.join("")}${spokes.join("")}${shapes.join("")}${legend.join("")}</svg>`;
}

function tableHtml(headers: string[], rows: string[][]): string {
  return `<table><thead><tr>${headers.map((h) => `<th>${escape(h)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((c) => `<td>${escape(c)}</td>`).join("")}</tr>`)
    .join("")}</tbody></table>`;
}

export function renderArenaHtml(report: ArenaReport): string {
  const sections = arenaSections(report)
    .map(
      (s) =>
        `<section><h2>${escape(s.title)}</h2>${tableHtml(s.headers, s.rows)}${s.notes.map((n) => `<p>${escape(n)}</p>`).join("")}</section>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(`Arena: ${report.name}`)}</title>
<style>
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1000px;color:#222;padding:0 1rem}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:2rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #ddd;padding:.25rem .5rem;text-align:left}th{background:#f6f6f6}
svg{font:12px system-ui,sans-serif;display:block;margin:.5rem 0}.small{font-size:11px}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
</style></head><body>
<h1>${escape(`Arena "${report.name}"`)}</h1>
<p>${escape(`${report.status} · judge ${report.results.judge} · ${report.results.questions} questions · ${report.results.bootstrap.rounds} bootstrap rounds, random seed ${report.results.bootstrap.seed} · id ${report.id}`)}</p>
<h2>Ratings with 95% intervals</h2>
${ratingsChart(report)}
<div class="charts"><div><h2>Win matrix</h2>${heatMap(report)}</div><div><h2>Rubric dimensions</h2>${radarChart(report)}</div></div>
${sections}
</body></html>
`;
}
