// A small external RAG bot that speaks ragjudge's HTTP bot contract (docs/bots.md), to try
// `ragjudge eval --bot` against something that is not the built-in bot:
//   npx tsx examples/bots/http-bot.ts --port 8787 [--corpus examples/corpus]
//   curl -s localhost:8787/ask -H 'content-type: application/json' -d '{"question":"When did Line 1 open?"}'
// Retrieval is naive on purpose (keyword overlap over paragraphs, weighted by rarity) and the
// answer is the best-matching sentences, each cited: an honest baseline to score, not a good bot.
// Node built-ins only, so it reads like a bot written outside ragjudge.

import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { basename, extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export interface Paragraph {
  /**
   * `<file name without extension>#<n>`: it has a digit, so an inline `[lanting-faq#2]` reads as
   * a citation marker to ragjudge's gate (an id like `faq-ferry-fare` would not).
   */
  node_id: string;
  /** The file name, or a JSONL record's own id. */
  document_id: string;
  title: string;
  content: string;
}

const DEFAULT_CORPUS = fileURLToPath(new URL("../corpus", import.meta.url));
const TOP_CONTEXTS = 3;
const ANSWER_SENTENCES = 2;

/** Reads .md, .jsonl and .html files of `dir` into paragraphs; other files are skipped. */
export function loadCorpus(dir: string = DEFAULT_CORPUS): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  for (const file of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, file), "utf8");
    const document_id = file;
    const stem = basename(file, extname(file));
    switch (extname(file)) {
      case ".md": {
        const title = /^#\s+(.+)$/m.exec(text)?.[1]?.trim() ?? stem;
        const blocks = text.split(/\n\s*\n/).map((b) => b.trim());
        blocks
          .filter((b) => b && !b.startsWith("#"))
          .forEach((content, i) => {
            paragraphs.push({ node_id: `${stem}#${i + 1}`, document_id, title, content });
          });
        break;
      }
      case ".jsonl": {
        const lines = text.split("\n").filter((line) => line.trim());
        lines.forEach((line, i) => {
          const record = JSON.parse(line) as { id?: string; title?: string; text: string };
          paragraphs.push({
            node_id: `${stem}#${i + 1}`,
            document_id: record.id ?? document_id,
            title: record.title ?? stem,
            content: record.text,
          });
        });
        break;
      }
      case ".html": {
        const title = /<title>([\s\S]*?)<\/title>/i.exec(text)?.[1]?.trim() ?? stem;
        const blocks = [...text.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/gi)].map((m) => plain(m[1]));
        blocks
          .filter((b) => b)
          .forEach((content, i) => {
            paragraphs.push({ node_id: `${stem}#${i + 1}`, document_id, title, content });
          });
        break;
      }
    }
  }
  return paragraphs;
}

function plain(html = ""): string {
  return html
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, " ")
    .trim();
}

const STOPWORDS = new Set(
  "a an and are as at be by did do does for from has have how in is it its of on or the to was were what when where which who why with".split(
    " ",
  ),
);

/** Lower-cased words without stopwords; each Han character is its own term. */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of text.toLowerCase().split(/[^\p{L}\p{N}]+/u)) {
    if (!word) continue;
    if (/\p{Script=Han}/u.test(word))
      out.push(...word.match(/\p{Script=Han}|[^\p{Script=Han}]+/gu)!);
    else if (!STOPWORDS.has(word)) out.push(word);
  }
  return out;
}

export interface BotReply {
  answer: string;
  citations: string[];
  contexts: (Paragraph & { score: number; source: string })[];
  tool_calls: { tool: string; query: string; hits: number }[];
}

/** Scores paragraphs and sentences by the rarity-weighted question terms they contain. */
export function answerQuestion(corpus: Paragraph[], question: string): BotReply {
  const termSets = corpus.map((p) => new Set(terms(p.content)));
  const idf = (term: string) => {
    const df = termSets.filter((set) => set.has(term)).length;
    return df === 0 ? 0 : Math.log(1 + corpus.length / df);
  };
  const wanted = new Map([...new Set(terms(question))].map((t) => [t, idf(t)]));
  const best = [...wanted.values()].reduce((sum, w) => sum + w, 0) || 1;
  const overlap = (set: Set<string>) =>
    [...wanted].reduce((sum, [term, weight]) => sum + (set.has(term) ? weight : 0), 0);

  const contexts = corpus
    .map((p, i) => ({ ...p, score: overlap(termSets[i]!) / best, source: "keyword" }))
    .filter((p) => p.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, TOP_CONTEXTS)
    .map((p) => ({ ...p, score: Math.round(p.score * 1000) / 1000 }));

  const sentences = contexts
    .flatMap((p) =>
      p.content
        // A full stop ends a sentence only before a capital: "2.1 million" stays whole.
        .split(/(?<=[.!?])\s+(?=[\p{Lu}"“(])|(?<=[。！？])/u)
        .filter((s) => s.trim())
        .map((text) => ({
          text: text.trim(),
          node_id: p.node_id,
          score: overlap(new Set(terms(text))),
        })),
    )
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, ANSWER_SENTENCES);

  const tool_calls = [{ tool: "keyword_search", query: question, hits: contexts.length }];
  if (sentences.length === 0) {
    return { answer: "The corpus does not say.", citations: [], contexts, tool_calls };
  }
  return {
    // The marker goes before the full stop, so it belongs to its own sentence.
    answer: sentences
      .map((s) => s.text.replace(/([.!?。！？]?)$/u, ` [${s.node_id}]$1`))
      .join(" ")
      .replace(/([。！？]) /gu, "$1"),
    citations: [...new Set(sentences.map((s) => s.node_id))],
    contexts,
    tool_calls,
  };
}

/** POST /ask with `{"question": "..."}` answers; GET /health says it is up. Not yet listening. */
export function createServer(options: { corpus?: Paragraph[] } = {}): http.Server {
  const corpus = options.corpus ?? loadCorpus();
  return http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "GET" && path === "/health") return send(200, { ok: true });
    if (path !== "/ask") return send(404, { error: `no route ${path}; POST /ask` });
    if (req.method !== "POST") return send(405, { error: "POST a JSON body {question}" });
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 64_000) req.destroy();
    });
    req.on("end", () => {
      let question: unknown;
      try {
        question = (JSON.parse(body) as { question?: unknown }).question;
      } catch {
        return send(400, { error: "the body is not JSON" });
      }
      if (typeof question !== "string" || !question.trim()) {
        return send(400, { error: "question: expected a non-empty string" });
      }
      send(200, answerQuestion(corpus, question));
    });
  });
}

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(option("--port") ?? 8787);
  const corpusDir = option("--corpus") ?? DEFAULT_CORPUS;
  const corpus = loadCorpus(corpusDir);
  const server = createServer({ corpus });
  // Loopback only: an example has no business being reachable from the network.
  server.listen(port, "127.0.0.1", () => {
    const { port: bound } = server.address() as AddressInfo;
    console.log(
      `example bot: http://127.0.0.1:${bound}/ask (${corpus.length} paragraphs from ${corpusDir})`,
    );
  });
  process.on("SIGINT", () => server.close(() => process.exit(0)));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}
