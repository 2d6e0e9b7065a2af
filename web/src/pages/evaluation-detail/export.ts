import { ApiError, api } from "../../api/client";
import type { ResultFilters } from "./filters";
import { resultsQueryOf } from "./queries";

/**
 * The filtered results as a file, made by the server (`/export`: the same filters as the list,
 * every page, spreadsheet-safe cells), saved through a download link.
 */
export async function exportResults(id: string, filters: ResultFilters, format: "csv" | "json") {
  const { data, response } = await api.GET("/api/v1/evaluations/{id}/export", {
    params: { path: { id }, query: { ...resultsQueryOf(filters), format } },
    parseAs: "blob",
  });
  if (!response.ok || !data)
    throw new ApiError(
      response.status,
      String(response.status),
      `export failed: ${response.status} ${response.statusText}`,
      undefined,
    );
  const url = URL.createObjectURL(data);
  const a = document.createElement("a");
  a.href = url;
  a.download = `evaluation-${id.slice(0, 8)}.${format}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
