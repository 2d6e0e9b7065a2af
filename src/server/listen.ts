import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";

/** Binds 127.0.0.1 unless told otherwise: the API holds audit data. */
export async function listen(
  app: Hono<never> | { fetch: Hono["fetch"] },
  options: { host?: string; port?: number } = {},
): Promise<{ server: ServerType; url: string; close(): Promise<void> }> {
  const host = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    const server = serve(
      { fetch: app.fetch, hostname: host, port: options.port ?? 8787 },
      (info) => {
        const url = `http://${host.includes(":") ? `[${host}]` : host}:${info.port}`;
        resolve({
          server,
          url,
          close: () =>
            new Promise((done) => {
              server.close(() => done());
              // Event streams never go idle: after a grace period they are cut.
              const force = setTimeout(() => {
                if ("closeAllConnections" in server) server.closeAllConnections();
              }, 2_000);
              force.unref();
            }),
        });
      },
    );
    server.once("error", reject);
  });
}
