// Where a login may send the browser next: the server's login link and the web app's login page
// both decide with this one function (web/ imports this file directly; it is pure and imports
// nothing), so the two sides cannot disagree about what leaves the origin.

/** Where a login lands unless it names a page of its own. */
export const DEFAULT_LANDING = "/evaluations";

/**
 * `next` as a path on `origin`, or DEFAULT_LANDING. It is resolved against the origin as a
 * browser would resolve it and kept only when it stays there: `//host`, `/\host` and `/<TAB>/host`
 * all name another host once parsed, and `/..//host` would once its dot segments are gone. Login and API paths are refused too, and control characters
 * (never part of a real page's address). The answer is percent-encoded (`?q=票价` becomes
 * `?q=%E7%A5%A8%E4%BB%B7`), so it is safe in a `Location` header, which carries bytes only.
 */
export function safeLandingPath(next: string | undefined, origin: string): string {
  if (!next || !next.startsWith("/") || hasControlCharacter(next)) return DEFAULT_LANDING;
  let url: URL;
  try {
    url = new URL(next, origin);
  } catch {
    return DEFAULT_LANDING;
  }
  if (url.origin !== new URL(origin).origin) return DEFAULT_LANDING;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/login")) {
    return DEFAULT_LANDING;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can leave a path starting `//` (`/..//host`), which would name a host on its
  // own: the answer must lead back to the very URL it was taken from.
  return new URL(path, origin).href === url.href ? path : DEFAULT_LANDING;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
