import createClient from "openapi-fetch";
import type { paths } from "./schema";
import { chosenWorkspace, WORKSPACE_HEADER } from "./workspace";

/**
 * The one way the app talks to the API: the client typed by the OpenAPI document's generated
 * types. The session is an HttpOnly cookie, sent because requests stay on the app's own origin;
 * no token is ever kept in the page.
 */
export const api = createClient<paths>({ baseUrl: "", credentials: "same-origin" });
api.use({
  onRequest({ request }) {
    const workspace = chosenWorkspace();
    if (workspace) request.headers.set(WORKSPACE_HEADER, workspace);
    return request;
  },
});

/** An API answer that was not a success, with the server's own message. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
  static isInstance(value: unknown): value is ApiError {
    return value instanceof Error && value.name === "ApiError";
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer, or an ApiError carrying the server's message. */
export async function must<T>(call: Promise<Answer<T>>): Promise<NonNullable<T>> {
  const { data, error, response } = await call;
  if (response.ok) return data as NonNullable<T>;
  const body = (error ?? {}) as { error?: string; message?: string };
  if (response.status === 401) window.dispatchEvent(new Event("ragjudge:unauthorized"));
  throw new ApiError(
    response.status,
    body.error ?? String(response.status),
    body.message ?? `${response.status} ${response.statusText}`,
    error,
  );
}
