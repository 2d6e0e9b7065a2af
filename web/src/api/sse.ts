/** One Server-Sent Event as the stream parser yields it. */
export interface SseMessage {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental text/event-stream parser: feed it chunks as they arrive, get whole messages.
 * Comments (": keep-alive") are skipped; a message ends at a blank line (LF or CRLF).
 */
export function createSseParser(onMessage: (message: SseMessage) => void) {
  let buffer = "";
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  const dispatch = () => {
    if (data.length > 0) {
      onMessage({
        event: event || "message",
        data: data.join("\n"),
        ...(id !== undefined ? { id } : {}),
      });
    }
    event = "";
    data = [];
    id = undefined;
  };
  return (chunk: string) => {
    buffer += chunk;
    let newline = buffer.search(/\r?\n/);
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer[newline] === "\r" ? 2 : 1));
      if (line === "") dispatch();
      else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id") id = value;
      }
      newline = buffer.search(/\r?\n/);
    }
  };
}
