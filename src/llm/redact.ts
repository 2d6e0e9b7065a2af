// The one redaction of error texts. Providers and bots echo what they were sent ("Incorrect API
// key provided: sk-…"), and an error's message ends up in result rows, reports, stdout and logs;
// so texts are redacted where errors are made (LlmError, BotError) and where any other error
// becomes text (errorText), never later by each reader.

/** What a secret is replaced with, everywhere. */
export const REDACTED = "[REDACTED]";

/**
 * Secrets this process was configured with (LLM API keys, bot credentials). A process-wide set
 * because error texts are built far from where a key is known: an echo of one role's key may
 * surface through another layer's message.
 */
const configured = new Set<string>();
/** Longest first, so a key that contains another is replaced whole. */
let ordered: string[] = [];

/** Shorter values would redact ordinary words; no real key is this short. */
const MIN_SECRET_CHARS = 8;

/** Adds secrets to redact from every later error text. Short or empty values are ignored. */
export function registerSecrets(values: Iterable<string | null | undefined>): void {
  let added = false;
  for (const value of values) {
    const secret = value?.trim();
    if (!secret || secret.length < MIN_SECRET_CHARS || configured.has(secret)) continue;
    configured.add(secret);
    added = true;
  }
  if (added) ordered = [...configured].sort((a, b) => b.length - a.length);
}

/**
 * Shapes of credentials whatever their source, for keys this process was never told about (a
 * proxy's key, another user's key echoed by a shared gateway).
 */
const KEY_SHAPES: readonly RegExp[] = [
  // OpenAI (sk-, sk-proj-, sk-svcacct-), Anthropic (sk-ant-), DeepSeek, Moonshot, ...
  /\bsk-[A-Za-z0-9_-]{8,}/g,
  // Google, Hugging Face, GitHub, Groq, xAI, Replicate, AWS access key ids, Slack; ragjudge's own tokens.
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\bhf_[A-Za-z0-9]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bgsk_[A-Za-z0-9]{16,}/g,
  /\bxai-[A-Za-z0-9]{16,}/g,
  /\br8_[A-Za-z0-9]{16,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\brj_[A-Za-z0-9_-]{16,}/g,
  // JSON Web Tokens.
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

/** `Bearer <token>`: the scheme stays, the credential goes. */
const AUTH_SCHEME = /\b(Bearer)(\s+)[A-Za-z0-9._~+/=-]{8,}/gi;

/** `api_key=…`, `"api-key": "…"`, `x-api-key: …`, `password=…`: the name stays, the value goes. */
const NAMED_VALUE =
  /\b((?:x-)?api[_-]?key|access[_-]?token|secret|password|passwd|client[_-]?secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;}]{6,}/gi;

/**
 * The text with every configured secret and anything shaped like a credential replaced by
 * "[REDACTED]". `extra` adds secrets known only to the caller.
 */
export function redactSecrets(text: string, extra: readonly string[] = []): string {
  // Every match is found in the original text first and overlapping ones merged: replacing one
  // secret before looking for the next would leave the tail of a longer key that starts with a
  // configured one ("sk-abcdef" configured, "sk-abcdef1234…" echoed) unmatched by its shape.
  const ranges: [number, number][] = [];
  for (const secret of extra.length > 0 ? [...extra, ...ordered] : ordered) {
    if (secret.length < MIN_SECRET_CHARS) continue;
    for (let at = text.indexOf(secret); at !== -1; at = text.indexOf(secret, at + secret.length)) {
      ranges.push([at, at + secret.length]);
    }
  }
  for (const shape of KEY_SHAPES) {
    for (const match of text.matchAll(shape))
      ranges.push([match.index, match.index + match[0].length]);
  }
  let out = replaceRanges(text, ranges);
  out = out.replace(AUTH_SCHEME, `$1$2${REDACTED}`);
  return out.replace(NAMED_VALUE, `$1$2${REDACTED}`);
}

/** The text with each run of overlapping or touching ranges replaced by one "[REDACTED]". */
function replaceRanges(text: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return text;
  ranges.sort((a, b) => a[0] - b[0]);
  let out = "";
  let copied = 0;
  let [start, end] = ranges[0]!;
  for (const [from, to] of ranges.slice(1)) {
    if (from <= end) {
      end = Math.max(end, to);
      continue;
    }
    out += text.slice(copied, start) + REDACTED;
    copied = end;
    [start, end] = [from, to];
  }
  return out + text.slice(copied, start) + REDACTED + text.slice(end);
}

/** An error (or anything thrown) as text safe to store, print, log or return. */
export function errorText(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error));
}
