import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Context, Hono } from "hono";
import type { Env } from "./http.js";

/**
 * Where `npm run build` puts the web app (Vite's output). The same relative path works from
 * src/server (tsx) and dist/server (built): both sit two folders below the package root.
 */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL("../../dist/web/", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".woff": "font/woff",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};

/** Sent with every page and asset: no sniffing, no framing (clickjacking), no referrer. */
export const PAGE_HEADERS = {
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
} as const;

/** Vite names every file under assets/ by its content hash: it may be cached for good. */
const IMMUTABLE = "public, max-age=31536000, immutable";

const NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>ragjudge: web app not built</title></head>
<body><h1>The ragjudge web app is not built</h1>
<p>Run <code>npm run build</code> in the ragjudge folder, then restart <code>ragjudge serve</code>.
The API works without it: see <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.</p>
</body></html>
`;

/** A file under `root`, or undefined when it is missing or the path would leave `root`. */
async function fileUnder(root: string, urlPath: string): Promise<Buffer | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes("\0")) return undefined;
  const full = normalize(join(root, decoded));
  if (!full.startsWith(root.endsWith(sep) ? root : root + sep)) return undefined;
  try {
    if (!(await stat(full)).isFile()) return undefined;
    return await readFile(full);
  } catch {
    return undefined;
  }
}

function notFound(c: Context) {
  return c.text(`Not found: ${c.req.path}`, 404, { ...PAGE_HEADERS, "cache-control": "no-cache" });
}

/**
 * Serves the built web app beside the API: hashed assets with long-lived caching, and index.html
 * (never cached, so a new build is picked up) for every other path without a file extension, so
 * the app's deep links survive a reload. A missing asset is a 404, never the HTML page: a stale
 * script tag must fail loudly rather than parse HTML as JavaScript.
 */
export function webAppRoutes(app: Hono<Env>, webDir: string = DEFAULT_WEB_DIR) {
  const root = normalize(webDir);
  app.on(["GET", "HEAD"], "*", async (c, next) => {
    const path = c.req.path;
    if (path === "/api" || path.startsWith("/api/")) return next();
    const isAsset = path.startsWith("/assets/") || extname(path) !== "";
    if (isAsset) {
      const body = await fileUnder(root, path);
      if (!body) return notFound(c);
      const type = CONTENT_TYPES[extname(path).toLowerCase()] ?? "application/octet-stream";
      const cache = path.startsWith("/assets/") ? IMMUTABLE : "no-cache";
      return c.body(new Uint8Array(body), 200, {
        ...PAGE_HEADERS,
        "content-type": type,
        "cache-control": cache,
      });
    }
    const index = await fileUnder(root, "index.html");
    if (!index) return c.html(NOT_BUILT, 404, { ...PAGE_HEADERS, "cache-control": "no-cache" });
    return c.body(new Uint8Array(index), 200, {
      ...PAGE_HEADERS,
      "content-type": CONTENT_TYPES[".html"] as string,
      "cache-control": "no-cache",
    });
  });
}
