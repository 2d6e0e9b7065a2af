// The external bot contract (docs/bots.md): what ragjudge POSTs to a bot and what it accepts back.
// Lenient where bots written in other languages commonly differ (null for absent, numeric ids),
// strict where a wrong shape would make scores meaningless (answer must be a string).

import { z } from "zod";
import { parseStrictJson } from "../../text/index.js";
import type { ModelUsage } from "../../llm/index.js";
import type { BotSource } from "./types.js";

export interface HttpBotRequest {
  question: string;
}

/** Python bots send `null` for an absent field; treat it as absent. */
const optional = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value) => value ?? undefined);

const NodeIdSchema = z.union([z.string().min(1), z.number()]).transform(String);

const ContextObjectSchema = z
  .object({
    node_id: optional(NodeIdSchema),
    id: optional(NodeIdSchema),
    content: optional(z.string()),
    text: optional(z.string()),
    source: optional(z.string()),
    score: optional(z.number()),
    title: optional(z.string()),
    document_id: optional(NodeIdSchema),
  })
  .refine((context) => context.content !== undefined || context.text !== undefined, {
    message: "expected a `content` or `text` string",
  });

const Tokens = z.number().int().min(0).max(1e12);

/** Tokens the bot's own LLM used for this answer, so the run can price them (docs/cost.md). */
const UsageObjectSchema = z.object({
  /** The model's name as the provider spells it; without it the tokens have no price. */
  model: optional(z.string().min(1).max(256)),
  prompt_tokens: Tokens,
  completion_tokens: Tokens,
  /** Of prompt_tokens, those served from the provider's prompt cache. */
  cached_tokens: optional(Tokens),
  calls: optional(z.number().int().min(0).max(1e6)),
});

export const HttpBotReplySchema = z.object({
  answer: z.string({
    error: (issue) => (issue.input === undefined ? "required string" : "expected a string"),
  }),
  citations: optional(z.array(z.union([NodeIdSchema, z.object({ node_id: NodeIdSchema })]))),
  contexts: optional(z.array(z.union([z.string(), ContextObjectSchema]))),
  tool_calls: optional(z.array(z.unknown())),
  /** One object, or one per model the bot used. */
  usage: optional(z.union([UsageObjectSchema, z.array(UsageObjectSchema).max(50)])),
});
export type HttpBotReply = z.infer<typeof HttpBotReplySchema>;

export type ParsedReply =
  | {
      ok: true;
      answer: string;
      citations: string[];
      contexts: BotSource[];
      trace: unknown[];
      /** The tokens the bot reported, by model (role `bot`); empty when it reported none. */
      usage: ModelUsage[];
    }
  | { ok: false; problem: string };

/** A model the bot did not name: its tokens are counted, never priced. */
export const UNNAMED_BOT_MODEL = "(bot's model, not named)";

/**
 * Parses a reply body into the parts of a BotAnswer, or says what is wrong with it, naming the
 * field (e.g. `contexts.2.content: expected a string`).
 */
export function parseHttpBotReply(body: string): ParsedReply {
  // The strict reader every input gets: nesting past 64 levels, a NUL or a lone surrogate is
  // refused here, before the reply reaches code that recurses over it or a jsonb column.
  const json = parseStrictJson(body);
  if (!json.ok && json.kind === "malformed") {
    // Neither the body nor the parser's message (which quotes it): a URL pointed at an internal
    // service must not read that service back through the error.
    return {
      ok: false,
      problem: `reply is not JSON (${body.trim() ? `${body.length} characters` : "empty body"})`,
    };
  }
  if (!json.ok) {
    // Named down to the contract's own field only: deeper keys are the body's words.
    const top = json.path.split(".")[0] ?? "";
    const field = top in HttpBotReplySchema.shape ? `reply field ${top}` : "reply";
    return { ok: false, problem: `${field}: ${json.message}` };
  }
  const result = HttpBotReplySchema.safeParse(json.value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const { path, message } = issue ? innermost(issue, []) : { path: [], message: "invalid" };
    return { ok: false, problem: `reply field ${path.join(".") || "(reply)"}: ${message}` };
  }
  const reply = result.data;
  return {
    ok: true,
    answer: reply.answer,
    citations: (reply.citations ?? []).map((c) => (typeof c === "string" ? c : c.node_id)),
    contexts: (reply.contexts ?? []).map(sourceOf),
    trace: reply.tool_calls ?? [],
    usage: usageOf(reply.usage),
  };
}

function usageOf(usage: HttpBotReply["usage"]): ModelUsage[] {
  if (usage === undefined) return [];
  return (Array.isArray(usage) ? usage : [usage]).map((u) => ({
    role: "bot",
    model: u.model ?? UNNAMED_BOT_MODEL,
    calls: u.calls ?? 1,
    prompt_tokens: u.prompt_tokens,
    cached_tokens: Math.min(u.cached_tokens ?? 0, u.prompt_tokens),
    completion_tokens: u.completion_tokens,
  }));
}

/** String contexts, and objects without an id, get `ctx-1..n` by position. */
function sourceOf(context: NonNullable<HttpBotReply["contexts"]>[number], i: number): BotSource {
  if (typeof context === "string") return { node_id: `ctx-${i + 1}`, content: context };
  const source: BotSource = {
    node_id: context.node_id ?? context.id ?? `ctx-${i + 1}`,
    content: context.content ?? context.text ?? "",
  };
  if (context.source !== undefined) source.source = context.source;
  if (context.score !== undefined) source.score = context.score;
  if (context.title !== undefined) source.title = context.title;
  if (context.document_id !== undefined) source.document_id = context.document_id;
  return source;
}

/**
 * A union's own message is "Invalid input"; the branch that got furthest into the value (the
 * longest path) says what is actually wrong, e.g. `contexts.0.text` rather than `contexts.0`.
 */
function innermost(issue: z.core.$ZodIssue, prefix: string[]): { path: string[]; message: string } {
  const path = [...prefix, ...issue.path.map(String)];
  if (issue.code !== "invalid_union" || issue.errors.length === 0) {
    return { path, message: issue.message };
  }
  const branches = unionBranches(issue);
  const deepest = branches.reduce((best, b) => (b.path.length > best.path.length ? b : best));
  if (deepest.path.length > 0) return innermost(deepest, path);
  const expected = [
    ...new Set(branches.flatMap((b) => (b.code === "invalid_type" ? [b.expected] : []))),
  ];
  return { path, message: expected.length ? `expected ${expected.join(" or ")}` : issue.message };
}

/** The first issue of each branch, with unions nested at the same place opened up. */
function unionBranches(issue: z.core.$ZodIssueInvalidUnion): z.core.$ZodIssue[] {
  return issue.errors.flatMap((branch) =>
    branch
      .slice(0, 1)
      .flatMap((first) =>
        first.code === "invalid_union" && first.path.length === 0 ? unionBranches(first) : [first],
      ),
  );
}
