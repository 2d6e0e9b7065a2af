import { api } from "../../api/client";
import { saveAnswerAsFile } from "../../api/save-file";
import type { ResultFilters } from "./filters";
import { resultsQueryOf } from "./queries";

/**
 * The filtered results as a file, made by the server (`/export`: the same filters as the list,
 * every page, spreadsheet-safe cells), saved through a download link.
 */
export async function exportResults(id: string, filters: ResultFilters, format: "csv" | "json") {
  const answer = await api.GET("/api/v1/evaluations/{id}/export", {
    params: { path: { id }, query: { ...resultsQueryOf(filters), format } },
    parseAs: "blob",
  });
  saveAnswerAsFile(answer, `evaluation-${id.slice(0, 8)}.${format}`);
}
