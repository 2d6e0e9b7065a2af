// A Server-Sent Events stream read as it arrives, for tests of /evaluations/:id/events.

export interface SseEvent {
  event: string;
  data: unknown;
}

/** An open event stream: the events so far, and a way to close it. */
export interface OpenStream {
  status: number;
  /** The JSON body of a refusal. */
  refusal: unknown;
  events: SseEvent[];
  ended: Promise<void>;
  close(): void;
}

/** Opens a stream over a real socket and reads its events as they arrive. */
export async function openStream(url: string, token: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const read = async () => {
    if (!response.body) return;
    let buffer = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const lines = buffer.slice(0, end).split("\n");
        buffer = buffer.slice(end + 2);
        const data = lines.filter((l) => l.startsWith("data: ")).map((l) => l.slice(6));
        if (data.length === 0) continue;
        const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "message";
        events.push({ event, data: JSON.parse(data.join("\n")) as unknown });
      }
    }
  };
  const refusal = response.ok ? undefined : ((await response.json()) as unknown);
  const ended = response.ok ? read().catch(() => undefined) : Promise.resolve();
  return { status: response.status, refusal, events, ended, close: () => controller.abort() };
}
