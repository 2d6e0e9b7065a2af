// Which bot a run asked, in words (issue 23 §5): the built-in bot with the generator model it
// used, or "extractive" without one; a registered bot by its name; an HTTP bot by its URL; an
// answers file. Read from the run's configuration snapshot (open-ended JSON).

export type BotLabel =
  | { kind: "builtin"; model: string | null }
  | { kind: "registered"; name: string }
  | { kind: "http"; url: string }
  | { kind: "answers" }
  | { kind: "unknown"; id: string };

const record = (value: unknown): Record<string, unknown> =>
  typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};

export function botLabelOf(
  run: { bot_id: string; config: Record<string, unknown> },
  botNames: ReadonlyMap<string, string>,
): BotLabel {
  const bot = record(run.config.bot);
  if (bot.kind === "builtin") {
    const model = record(record(run.config.models).generator).model;
    return { kind: "builtin", model: typeof model === "string" && model !== "" ? model : null };
  }
  if (bot.kind === "answers") return { kind: "answers" };
  if (bot.kind === "http") {
    const name = typeof bot.bot_id === "string" ? botNames.get(bot.bot_id) : undefined;
    if (name) return { kind: "registered", name };
    return { kind: "http", url: typeof bot.url === "string" ? bot.url : run.bot_id };
  }
  return { kind: "unknown", id: run.bot_id };
}
