import type { Context } from "hono";

// What the server's own small HTML pages share (the login link's and the invitation's): text
// escaped into HTML, and their one form read under a size limit.

/** A page's form is at most this many bytes (a code, a name, a landing path). */
export const MAX_FORM_BYTES = 4_096;

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] as string,
  );

/**
 * The url-encoded form, or undefined when it is longer than MAX_FORM_BYTES. A body sent without
 * a length is kept only up to the limit; the rest is read and dropped (stopping would close the
 * connection before the page that says why is sent), so a chunked gigabyte takes no memory.
 */
export async function readForm(c: Context): Promise<URLSearchParams | undefined> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_FORM_BYTES) return undefined;
  const body = c.req.raw.body;
  if (!body) return new URLSearchParams();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.byteLength;
    if (length <= MAX_FORM_BYTES) chunks.push(chunk);
  }
  if (length > MAX_FORM_BYTES) return undefined;
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
