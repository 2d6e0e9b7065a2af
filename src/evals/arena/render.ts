// One entry point for drawing a stored arena in any of its formats.
import type { ArenaRow } from "../../store/index.js";
import type { MessageLanguage } from "../../text/index.js";
import { renderArenaHtml as html } from "./html.js";
import {
  type ArenaFormat,
  renderArenaJson,
  renderArenaMarkdown,
  renderArenaTable,
} from "./report.js";
import type { ArenaResults } from "./service.js";

/** A completed arena row in the asked format; a table's or Markdown's words in `lang`. */
export function renderArena(
  row: ArenaRow,
  format: ArenaFormat,
  lang: MessageLanguage = "en",
): string {
  const report = {
    id: row.id,
    name: row.name,
    status: row.status,
    results: row.results as ArenaResults,
  };
  if (format === "json") return renderArenaJson(report);
  if (format === "markdown") return renderArenaMarkdown(report, lang);
  if (format === "html") return html(report);
  return renderArenaTable(report, lang);
}
