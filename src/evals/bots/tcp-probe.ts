import { connect, type LookupFunction } from "node:net";
import { BotNetworkPolicyError } from "./network-policy.js";
import { BotError } from "./types.js";

export interface TcpProbeOptions {
  host: string;
  port: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Resolves the host (the network policy's checked lookup); default the system's. */
  lookup?: LookupFunction;
}

/**
 * Opens and closes one TCP connection: cheaper than a question and free of side effects on the
 * bot, yet enough to tell a refused port or an unknown host from a bot that is up. Throws
 * BotError("unreachable") naming host:port and the system's error code; rethrows the caller's
 * abort reason when `signal` fires.
 */
export function probeTcp({
  host,
  port,
  timeoutMs,
  signal,
  lookup,
}: TcpProbeOptions): Promise<void> {
  const target = `${host.includes(":") ? `[${host}]` : host}:${port}`;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const socket = connect({ host, port, ...(lookup ? { lookup } : {}) });
    const finish = (error?: unknown) => {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = () => finish(signal.reason);
    const timer = setTimeout(
      () =>
        finish(
          new BotError(
            "unreachable",
            `cannot connect to ${target}: no answer within ${timeoutMs} ms`,
          ),
        ),
      timeoutMs,
    );
    signal.addEventListener("abort", onAbort, { once: true });
    socket.once("connect", () => finish());
    socket.once("error", (error: NodeJS.ErrnoException) =>
      finish(
        new BotError(
          "unreachable",
          error instanceof BotNetworkPolicyError
            ? error.message
            : `cannot connect to ${target}: ${error.code ?? "network error"}`,
        ),
      ),
    );
  });
}
