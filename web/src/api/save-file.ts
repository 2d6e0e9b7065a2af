import { ApiError } from "./client";

/**
 * Saves a file the API answered (asked with `parseAs: "blob"`) under the name its
 * content-disposition gives, else `fallbackName`. Files are fetched by the client, not by a plain
 * link, so the request acts in the workspace picked (its header), as every other one does.
 */
export function saveAnswerAsFile(
  answer: { data?: Blob; response: Response },
  fallbackName: string,
) {
  const { data, response } = answer;
  if (!response.ok || !data)
    throw new ApiError(
      response.status,
      String(response.status),
      `download failed: ${response.status} ${response.statusText}`,
      undefined,
    );
  const named = /filename="([^"]+)"/.exec(response.headers.get("content-disposition") ?? "");
  const url = URL.createObjectURL(data);
  const a = document.createElement("a");
  a.href = url;
  a.download = named?.[1] ?? fallbackName;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
