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

/** The url-encoded form, or undefined when it is longer than MAX_FORM_BYTES. */
export async function readForm(c: Context): Promise<URLSearchParams | undefined> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_FORM_BYTES) return undefined;
  const text = await c.req.text();
  if (Buffer.byteLength(text) > MAX_FORM_BYTES) return undefined;
  return new URLSearchParams(text);
}
