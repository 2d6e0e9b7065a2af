// One entry point for drawing a stored arena in any of its formats.
import type { ArenaRow } from "../../store/index.js";
import { renderArenaHtml as html } from "./html.js";
import {
  type ArenaFormat,
  renderArenaJson,
  renderArenaMarkdown,
  renderArenaTable,
} from "./report.js";
import type { ArenaResults } from "./service.js";

/** A completed arena row in the asked format. */
export function renderArena(row: ArenaRow, format: ArenaFormat): string {
  const report = {
    id: row.id,
    name: row.name,
    status: row.status,
    results: row.results as ArenaResults,
  };
  if (format === "json") return renderArenaJson(report);
  if (format === "markdown") return renderArenaMarkdown(report);
  if (format === "html") return html(report);
  return renderArenaTable(report);
}
