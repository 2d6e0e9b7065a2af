import { fork } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { seededRandom } from "./seeded-random.js";

/**
 * A scripted OpenAI-compatible server on 127.0.0.1 for tests and benchmarks: /v1/chat/completions
 * and /v1/embeddings answered by rules set per test. Never talks to a real model.
 */

export interface RecordedRequest {
  method: string;
  /** e.g. "/v1/chat/completions". */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body; {} when it is not a JSON object (see `text`). */
  body: RecordedBody;
  text: string;
}

/** The fields tests look at in an OpenAI request body. */
export interface RecordedBody {
  model?: string;
  messages?: { role: string; content: string }[];
  temperature?: number;
  seed?: number;
  max_tokens?: number;
  response_format?: {
    type: string;
    json_schema?: { name: string; strict?: boolean; schema: Record<string, unknown> };
  };
  input?: unknown;
  encoding_format?: string;
  [key: string]: unknown;
}

/**
 * Usage a chat answer reports instead of the approximate count; `cached_tokens` goes in
 * `prompt_tokens_details` as OpenAI reports its prompt cache.
 */
export interface ScriptedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
}

export type ScriptedReply =
  /** The content is exactly JSON.stringify(json), as a json_object / json_schema server answers. */
  | { json: unknown; latencyMs?: number; usage?: ScriptedUsage }
  /** Prose, then the JSON in a ```json fence, then more prose: a chatty model in prompt mode. */
  | { chatty: unknown; latencyMs?: number }
  /** `json` when the request carries a response_format, `chatty` when it does not. */
  | { auto: unknown; latencyMs?: number; usage?: ScriptedUsage }
  /** Any content, e.g. malformed JSON. */
  | { content: string; finishReason?: string; latencyMs?: number; usage?: ScriptedUsage }
  /** An assistant message that calls tools (`arguments` as an object), as an agent's model does. */
  | { toolCalls: { name: string; arguments: Record<string, unknown> }[]; latencyMs?: number }
  /** An error status; 429s may carry Retry-After (seconds or a date) or retry-after-ms. */
  | {
      status: number;
      retryAfter?: string;
      retryAfterMs?: string;
      message?: string;
      latencyMs?: number;
    }
  /** An embeddings answer. */
  | { embeddings: number[][]; latencyMs?: number }
  /** A 200 whose body is not an OpenAI response at all. */
  | { rawBody: string; latencyMs?: number }
  /** Never answers; the connection stays open until the client gives up or the server closes. */
  | { hang: true };

export interface ScriptedRule {
  /** Which requests the rule answers; default all. */
  when?: (request: RecordedRequest) => boolean;
  reply: ScriptedReply | ((request: RecordedRequest) => ScriptedReply);
  /** Requests answered before the rule is spent; default unlimited. */
  times?: number;
}

export interface ScriptedLlmOptions {
  /** Added before every answer unless a reply sets its own; default 0. */
  latencyMs?: number;
  /**
   * Up to this much more, drawn uniformly per answer (seeded, so runs repeat): a real model's
   * latency varies. Default 0.
   */
  latencySpreadMs?: number;
  /** response_format types answered with a 400, like a server without structured outputs. */
  unsupportedFormats?: ("json_schema" | "json_object")[];
  /** Usage every chat answer reports (unless its reply sets its own); default an approximate count. */
  usage?: ScriptedUsage;
  /** Keep every request in `requests`; default true. Benchmarks turn it off. */
  record?: boolean;
  rules?: ScriptedRule[];
}

export interface ScriptedLlm {
  /** e.g. "http://127.0.0.1:40123/v1". */
  readonly baseUrl: string;
  readonly requests: RecordedRequest[];
  latencyMs: number;
  latencySpreadMs: number;
  unsupportedFormats: Set<string>;
  /** Usage every chat answer reports; undefined: about 4 characters a token of the request. */
  usage: ScriptedUsage | undefined;
  /** Requests being answered right now, and the most seen at once since the last reset. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Adds a rule; the first matching rule that is not spent answers. */
  on(rule: ScriptedRule): ScriptedLlm;
  /** Clears rules and recorded requests. */
  reset(): void;
  close(): Promise<void>;
}

/** All message contents of a chat request, joined: handy for asserting prompt contents. */
export function promptText(request: RecordedRequest): string {
  return (request.body.messages ?? []).map((m) => m.content).join("\n\n");
}

export function isChat(request: RecordedRequest): boolean {
  return request.path.endsWith("/chat/completions");
}

/** Approximate token count, so usage numbers are non-zero and stable. */
function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

function parseBody(text: string): RecordedBody {
  try {
    const parsed: unknown = text ? JSON.parse(text) : undefined;
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as RecordedBody;
    }
  } catch {
    // not JSON: tests can read `text`
  }
  return {};
}

/** The body is parsed on first use: a benchmark's static replies never need it. */
function recordedRequest(req: http.IncomingMessage, text: string): RecordedRequest {
  let body: RecordedBody | undefined;
  return {
    method: req.method ?? "GET",
    path: (req.url ?? "/").split("?")[0] ?? "/",
    headers: req.headers,
    get body() {
      body ??= parseBody(text);
      return body;
    },
    text,
  };
}

/** Each completion gets its own id, as real servers give (LangGraph merges messages by id). */
let completions = 0;
const completionId = () => `chatcmpl-scripted-${(completions++).toString(36)}`;

const MODEL_FIELD = /"model"\s*:\s*"([^"\\]*)"/;

function chatBody(
  request: RecordedRequest,
  content: string,
  finishReason = "stop",
  scriptedUsage?: ScriptedUsage,
  toolCalls?: { name: string; arguments: Record<string, unknown> }[],
): string {
  // Usage is approximate (4 characters a token, over the raw request), and read without parsing.
  const completion = scriptedUsage?.completion_tokens ?? tokens(content);
  const promptTokens = scriptedUsage?.prompt_tokens ?? tokens(request.text);
  return JSON.stringify({
    id: completionId(),
    object: "chat.completion",
    created: 1_700_000_000,
    model: MODEL_FIELD.exec(request.text)?.[1] ?? "scripted",
    choices: [
      {
        index: 0,
        message: toolCalls
          ? {
              role: "assistant",
              content: null,
              tool_calls: toolCalls.map((call, i) => ({
                id: `call_${i}`,
                type: "function",
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
              })),
            }
          : { role: "assistant", content },
        finish_reason: toolCalls ? "tool_calls" : finishReason,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      ...(scriptedUsage?.cached_tokens !== undefined
        ? { prompt_tokens_details: { cached_tokens: scriptedUsage.cached_tokens } }
        : {}),
    },
  });
}

/**
 * A chat completion as a stream (`"stream": true`): server-sent chunks of a few words each, then
 * one with the finish reason and usage, then `[DONE]`, as OpenAI-compatible servers send them.
 */
function streamChat(
  request: RecordedRequest,
  content: string,
  finishReason = "stop",
  res: http.ServerResponse,
): void {
  const base = {
    id: completionId(),
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: MODEL_FIELD.exec(request.text)?.[1] ?? "scripted",
  };
  const pieces = content.match(/\S+\s*|\s+/g) ?? [];
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: unknown) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`;
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.write(chunk({ role: "assistant", content: "" }, null));
  for (let i = 0; i < pieces.length; i += 3)
    res.write(chunk({ content: pieces.slice(i, i + 3).join("") }, null));
  const promptTokens = tokens(request.text);
  const completion = tokens(content);
  res.write(
    chunk({}, finishReason, {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
    }),
  );
  res.end("data: [DONE]\n\n");
}

/** Deterministic 8-dimensional vectors, one per input string. */
function defaultEmbeddings(request: RecordedRequest): number[][] {
  const input: unknown = request.body.input;
  const texts = Array.isArray(input) ? input.map(String) : [String(input ?? "")];
  return texts.map((text) => {
    const vector = new Array<number>(8).fill(0);
    for (let i = 0; i < text.length; i++) {
      const slot = i % 8;
      vector[slot] = ((vector[slot] ?? 0) + text.charCodeAt(i)) % 997;
    }
    return vector.map((v) => v / 997);
  });
}

function chattyContent(value: unknown): string {
  return (
    "Sure! I read the question and the answer carefully. Here is my evaluation:\n\n" +
    `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\`\n\n` +
    "Let me know if you need anything else {or more detail}."
  );
}

export async function startScriptedLlm(options: ScriptedLlmOptions = {}): Promise<ScriptedLlm> {
  const rules: { rule: ScriptedRule; used: number }[] = (options.rules ?? []).map((rule) => ({
    rule,
    used: 0,
  }));
  const record = options.record ?? true;
  const requests: RecordedRequest[] = [];
  const spread = seededRandom(1);
  let inFlight = 0;
  let maxInFlight = 0;

  const server = http.createServer((req, res) => {
    inFlight++;
    if (inFlight > maxInFlight) maxInFlight = inFlight;
    res.on("close", () => {
      inFlight--;
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text =
        chunks.length === 1 ? (chunks[0] as Buffer).toString() : Buffer.concat(chunks).toString();
      const request = recordedRequest(req, text);
      if (record) requests.push(request);
      answer(request, res);
    });
  });
  server.keepAliveTimeout = 60_000;

  const scripted: ScriptedLlm = {
    baseUrl: "",
    requests,
    latencyMs: options.latencyMs ?? 0,
    latencySpreadMs: options.latencySpreadMs ?? 0,
    unsupportedFormats: new Set(options.unsupportedFormats ?? []),
    usage: options.usage,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    on(rule) {
      rules.push({ rule, used: 0 });
      return scripted;
    },
    reset() {
      rules.length = 0;
      requests.length = 0;
      maxInFlight = inFlight;
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };

  function pickReply(request: RecordedRequest): ScriptedReply {
    const format =
      scripted.unsupportedFormats.size > 0 ? request.body.response_format?.type : undefined;
    if (isChat(request) && format !== undefined && scripted.unsupportedFormats.has(format)) {
      return {
        status: 400,
        message: `response_format.type '${format}' is not supported by this server`,
      };
    }
    for (const entry of rules) {
      const { rule } = entry;
      if (rule.times !== undefined && entry.used >= rule.times) continue;
      if (rule.when && !rule.when(request)) continue;
      entry.used++;
      return typeof rule.reply === "function" ? rule.reply(request) : rule.reply;
    }
    if (!isChat(request)) return { embeddings: defaultEmbeddings(request) };
    return { status: 418, message: "scripted-llm: no rule matches this request" };
  }

  function answer(request: RecordedRequest, res: http.ServerResponse): void {
    const reply = pickReply(request);
    if ("hang" in reply) return;
    const send = () => {
      if (res.destroyed) return;
      let status = 200;
      let payload: string;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if ("status" in reply) {
        status = reply.status;
        if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter;
        if (reply.retryAfterMs !== undefined) headers["retry-after-ms"] = reply.retryAfterMs;
        payload = JSON.stringify({
          error: {
            message: reply.message ?? `scripted status ${reply.status}`,
            type: status === 429 ? "rate_limit_exceeded" : "scripted_error",
            code: null,
          },
        });
      } else if ("toolCalls" in reply) {
        payload = chatBody(request, "", undefined, undefined, reply.toolCalls);
      } else if ("rawBody" in reply) {
        payload = reply.rawBody;
      } else if ("embeddings" in reply) {
        payload = JSON.stringify({
          object: "list",
          data: reply.embeddings.map((embedding, index) => ({
            object: "embedding",
            index,
            embedding,
          })),
          model: MODEL_FIELD.exec(request.text)?.[1] ?? "scripted",
          usage: { prompt_tokens: 3, total_tokens: 3 },
        });
      } else {
        let content: string;
        if ("content" in reply) content = reply.content;
        else if ("json" in reply) content = JSON.stringify(reply.json);
        else if ("chatty" in reply) content = chattyContent(reply.chatty);
        else {
          const structured = request.text.includes('"response_format"');
          content = structured ? JSON.stringify(reply.auto) : chattyContent(reply.auto);
        }
        const finishReason = "finishReason" in reply ? reply.finishReason : undefined;
        if (request.body.stream === true) {
          streamChat(request, content, finishReason, res);
          return;
        }
        const usage = ("usage" in reply ? reply.usage : undefined) ?? scripted.usage;
        payload = chatBody(request, content, finishReason, usage);
      }
      headers["content-length"] = String(Buffer.byteLength(payload));
      res.writeHead(status, headers);
      res.end(payload);
    };
    const latency = reply.latencyMs ?? scripted.latencyMs + spread() * scripted.latencySpreadMs;
    if (latency > 0) setTimeout(send, latency);
    else send();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  (scripted as { baseUrl: string }).baseUrl = `http://127.0.0.1:${port}/v1`;
  return scripted;
}

/** Options a server in a child process accepts: plain data, so no `when` predicates or functions. */
export interface ScriptedLlmProcessOptions {
  latencyMs?: number;
  latencySpreadMs?: number;
  unsupportedFormats?: ("json_schema" | "json_object")[];
  /** Usage every chat answer reports (see ScriptedLlmOptions). */
  usage?: ScriptedUsage;
  /** Static replies, answered in order like rules without `when`. */
  replies?: { reply: Exclude<ScriptedReply, { hang: true }>; times?: number }[];
}

export interface ScriptedLlmProcess {
  readonly baseUrl: string;
  /** The child's process id (a benchmark reads its CPU time). */
  readonly pid: number;
  /** The fixed latency and the uniform spread above it (default 0), ms. */
  setLatency(ms: number, spreadMs?: number): Promise<void>;
  close(): Promise<void>;
}

type ControlMessage = { type: "latency"; ms: number; spreadMs: number } | { type: "close" };
const CHILD_ENV = "RAGJUDGE_SCRIPTED_LLM_CHILD";

/**
 * The scripted server in a child process, so a benchmark's client shares neither its event loop
 * nor its heap (a real LLM server never runs in the client's process). Requests are not recorded.
 * The child loads this module through tsx's loader.
 */
export async function startScriptedLlmProcess(
  options: ScriptedLlmProcessOptions = {},
): Promise<ScriptedLlmProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ["--import", import.meta.resolve("tsx")],
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(options) },
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once("message", (message: { baseUrl: string }) => resolve(message.baseUrl));
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`scripted LLM process exited with ${code}`)));
  });
  const request = (message: ControlMessage) =>
    new Promise<void>((resolve) => {
      child.once("message", () => resolve());
      child.send(message);
    });
  return {
    baseUrl,
    pid: child.pid as number,
    setLatency: (ms, spreadMs = 0) => request({ type: "latency", ms, spreadMs }),
    close: async () => {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      await request({ type: "close" });
      child.disconnect();
      await exited;
    },
  };
}

const childOptions = process.env[CHILD_ENV];
if (childOptions !== undefined && process.send) {
  delete process.env[CHILD_ENV];
  const options = JSON.parse(childOptions) as ScriptedLlmProcessOptions;
  const send = process.send.bind(process);
  startScriptedLlm({
    record: false,
    latencyMs: options.latencyMs ?? 0,
    latencySpreadMs: options.latencySpreadMs ?? 0,
    unsupportedFormats: options.unsupportedFormats ?? [],
    ...(options.usage ? { usage: options.usage } : {}),
    rules: (options.replies ?? []).map((entry) => ({ reply: entry.reply, times: entry.times })),
  }).then((server) => {
    process.on("message", async (message: ControlMessage) => {
      if (message.type === "latency") {
        server.latencyMs = message.ms;
        server.latencySpreadMs = message.spreadMs;
        send({ ok: true });
      } else {
        await server.close();
        send({ ok: true });
      }
    });
    send({ baseUrl: server.baseUrl });
  });
}
