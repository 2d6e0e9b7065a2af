// Retrieval benchmark: ingest throughput on PGlite (chunks/s, MB/s of text) and BM25 latency
// (p50/p95) at 100,000 chunks. Goal: BM25 p95 under 20 ms. The corpus is synthetic and seeded:
// 10,000 documents of 10 sections each (a section is one chunk, so the count is exact), words
// drawn from a Zipf distribution over 30,000 made-up words, one document in ten in Chinese.
// Retrieval quality is measured on real paragraphs in retrieval-quality.ts: on this synthetic
// corpus a few rare made-up words find their section every time, and every measure was 1.0.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import {
  createRetriever,
  ingestDocuments,
  loadLexicalIndex,
  type ParsedDocument,
  retrievalTokens,
} from "../src/rag/index.js";
import { findOrCreateUser, openStore, type Store } from "../src/store/index.js";
import { seededRandom } from "../test/support/seeded-random.js";

export interface RetrievalBenchRow {
  measure: string;
  value: number;
  unit: string;
  /** What was measured, for the table. */
  detail: string;
  goal?: string;
  met?: boolean;
}

export interface RetrievalBenchOptions {
  /** Default 100,000 (a multiple of 10). */
  chunks?: number;
  /** Default 300. */
  queries?: number;
  seed?: number;
  kind?: "pglite" | "postgres";
  databaseUrl?: string;
  onProgress?: (message: string) => void;
}

const SECTIONS_PER_DOCUMENT = 10;
const VOCABULARY = 30_000;
const SYLLABLES =
  "ba be bi bo bu ka ke ki ko ku la le li lo lu ma me mi mo mu na ne ni no nu ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo zu".split(
    " ",
  );
// Real Chinese words, so ICU's dictionary segmentation does real work.
const CHINESE_WORDS =
  "城市 港口 盐场 码头 大学 研究 洪水 防洪 地铁 轮渡 大桥 隧道 艺术 节日 游客 经济 工业 造船 海洋 历史 商人 人口 学校 图书馆 交通 乘客 车站 市政府 台风 水位 预警 系统 居民 街区 工作室 市集 音乐会 龙舟 比赛 海鲜 鱼丸 小吃 传统 文化 建筑 仓库 砖墙 修复 发展 计划 物流 就业 服务业 制造业 产值 集装箱 航运 船员 技术".split(
    " ",
  );

class SyntheticCorpus {
  readonly words: string[];
  private readonly cumulative: Float64Array;
  constructor(private readonly next: () => number) {
    const seen = new Set<string>();
    this.words = [];
    while (this.words.length < VOCABULARY) {
      const length = 2 + Math.floor(next() * 3);
      let word = "";
      for (let i = 0; i < length; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
      if (!seen.has(word)) {
        seen.add(word);
        this.words.push(word);
      }
    }
    // Zipf with s = 1: the word of rank r has weight 1 / r.
    this.cumulative = new Float64Array(VOCABULARY);
    let total = 0;
    for (let r = 0; r < VOCABULARY; r++) {
      total += 1 / (r + 1);
      this.cumulative[r] = total;
    }
    for (let r = 0; r < VOCABULARY; r++)
      this.cumulative[r] = (this.cumulative[r] as number) / total;
  }

  /** A word's rank drawn from the Zipf distribution, at least `minRank`. */
  rank(minRank = 0): number {
    for (;;) {
      const u = this.next();
      let lo = 0;
      let hi = VOCABULARY - 1;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((this.cumulative[mid] as number) < u) lo = mid + 1;
        else hi = mid;
      }
      if (lo >= minRank) return lo;
    }
  }

  englishSection(words: number): string {
    const sentences: string[] = [];
    let left = words;
    while (left > 0) {
      const length = Math.min(left, 8 + Math.floor(this.next() * 12));
      const sentence = Array.from({ length }, () => this.words[this.rank()]).join(" ");
      sentences.push(`${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`);
      left -= length;
    }
    return sentences.join(" ");
  }

  chineseSection(words: number): string {
    const sentences: string[] = [];
    let left = words;
    while (left > 0) {
      const length = Math.min(left, 6 + Math.floor(this.next() * 10));
      let sentence = "";
      for (let i = 0; i < length; i++) {
        sentence += CHINESE_WORDS[Math.floor(this.next() ** 2 * CHINESE_WORDS.length)];
      }
      sentences.push(`${sentence}。`);
      left -= length;
    }
    return sentences.join("");
  }

  document(n: number): ParsedDocument {
    const chinese = n % 10 === 9;
    const blocks = Array.from({ length: SECTIONS_PER_DOCUMENT }, (_, s) => ({
      // ~110 English words (~750 characters) or ~45 Chinese words (~100 characters, 300 units):
      // both under chunk_size, so each section is exactly one chunk.
      text: chinese
        ? this.chineseSection(35 + Math.floor(this.next() * 20))
        : this.englishSection(90 + Math.floor(this.next() * 40)),
      section: `Section ${s + 1}`,
    }));
    return {
      source: `synthetic/${n}.md`,
      kind: "markdown",
      title: `Document ${n}`,
      blocks,
      metadata: {},
    };
  }

  /** 1 to 4 terms; rare and common words both, one query in ten in Chinese. */
  query(): string {
    if (this.next() < 0.1) {
      const length = 1 + Math.floor(this.next() * 3);
      return Array.from(
        { length },
        () => CHINESE_WORDS[Math.floor(this.next() * CHINESE_WORDS.length)],
      ).join("");
    }
    const length = 1 + Math.floor(this.next() * 4);
    return Array.from({ length }, () => this.words[this.rank(5)]).join(" ");
  }
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export async function benchRetrieval(
  options: RetrievalBenchOptions = {},
): Promise<RetrievalBenchRow[]> {
  const chunkCount = options.chunks ?? 100_000;
  const queryCount = options.queries ?? 300;
  const documents = Math.ceil(chunkCount / SECTIONS_PER_DOCUMENT);
  const progress = options.onProgress ?? (() => {});
  const kind = options.kind ?? "pglite";
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-retrieval-"));
  let store: Store | undefined;
  try {
    store =
      kind === "postgres"
        ? await openStore({ databaseUrl: options.databaseUrl ?? "" })
        : await openStore({ home });
    const { db } = store;
    const user = await findOrCreateUser(db, "bench-retrieval");
    const corpus = new SyntheticCorpus(seededRandom(options.seed ?? 42));

    // Ingest. Text bytes are counted as generated; generation is cheap next to ingest.
    let bytes = 0;
    async function* generate() {
      for (let n = 0; n < documents; n++) {
        const doc = corpus.document(n);
        for (const block of doc.blocks) bytes += Buffer.byteLength(block.text);
        yield doc;
      }
    }
    const ingestStarted = performance.now();
    const ingested = await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: `bench-${chunkCount}`,
      documents: generate(),
      onProgress: (p) => {
        if (p.documents_added % 1_000 === 0) {
          progress(`ingested ${p.chunks_added.toLocaleString("en")} chunks`);
        }
      },
    });
    const ingestSeconds = (performance.now() - ingestStarted) / 1000;
    const collectionId = ingested.collection_id;
    if (ingested.chunks.added !== chunkCount) {
      throw new Error(`expected ${chunkCount} chunks, ingested ${ingested.chunks.added}`);
    }

    // Index build: reading every chunk's tokens and building the postings.
    const buildStarted = performance.now();
    const index = await loadLexicalIndex(db, user.id, collectionId);
    const buildSeconds = (performance.now() - buildStarted) / 1000;
    progress(`index built in ${buildSeconds.toFixed(1)} s`);

    const queries = Array.from({ length: queryCount }, () => corpus.query());
    // BM25 alone: tokenize the query and rank the collection (50 candidates, as retrieval asks).
    // Warm-up includes a Chinese query: ICU loads its dictionary on first use.
    for (const query of [...queries.slice(0, 20), CHINESE_WORDS.slice(0, 3).join("")]) {
      index.search(retrievalTokens(query), 50);
    }
    const searchMs: number[] = [];
    let hitsFound = 0;
    for (const query of queries) {
      const started = performance.now();
      const hits = index.search(retrievalTokens(query), 50);
      searchMs.push(performance.now() - started);
      if (hits.length > 0) hitsFound++;
    }
    searchMs.sort((a, b) => a - b);

    // The whole retriever, lexical source only: version check, BM25, RRF, rerank, row fetch.
    const retrieve = createRetriever({ db, workspaceId: user.id });
    const firstStarted = performance.now();
    await retrieve({
      collection_id: collectionId,
      query: queries[0] ?? "",
      sources: ["lexical"],
      top_k: 10,
    });
    const firstQuerySeconds = (performance.now() - firstStarted) / 1000;
    const retrieveMs: number[] = [];
    for (const query of queries) {
      const started = performance.now();
      await retrieve({ collection_id: collectionId, query, sources: ["lexical"], top_k: 10 });
      retrieveMs.push(performance.now() - started);
    }
    retrieveMs.sort((a, b) => a - b);

    // An ingest of 10 more documents (100 chunks) bumps the version: the next query refreshes the
    // index from the previous one instead of reading every chunk again.
    await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: { id: collectionId },
      documents: Array.from({ length: 10 }, (_, i) => corpus.document(documents + i)),
    });
    const refreshStarted = performance.now();
    await retrieve({
      collection_id: collectionId,
      query: queries[1] ?? "",
      sources: ["lexical"],
      top_k: 10,
    });
    const refreshSeconds = (performance.now() - refreshStarted) / 1000;

    const megabytes = bytes / 1_000_000;
    const where = kind === "pglite" ? "PGlite (data dir)" : "PostgreSQL server";
    const p95 = percentile(searchMs, 95);
    return [
      {
        measure: "ingest",
        value: chunkCount / ingestSeconds,
        unit: "chunks/s",
        detail: `${chunkCount.toLocaleString("en")} chunks, ${documents.toLocaleString("en")} documents, ${where}, ${ingestSeconds.toFixed(1)} s`,
      },
      {
        measure: "ingest",
        value: megabytes / ingestSeconds,
        unit: "MB/s",
        detail: `${megabytes.toFixed(1)} MB of text (UTF-8)`,
      },
      {
        measure: "index build",
        value: buildSeconds * 1000,
        unit: "ms",
        detail: "load tokens of every chunk + build postings",
      },
      {
        measure: "first query",
        value: firstQuerySeconds * 1000,
        unit: "ms",
        detail: "retriever's first query: builds its index",
      },
      {
        measure: "query after ingest",
        value: refreshSeconds * 1000,
        unit: "ms",
        detail: "10 more documents ingested: index refreshed from the previous one",
      },
      {
        measure: "bm25 p50",
        value: percentile(searchMs, 50),
        unit: "ms",
        detail: `${queryCount} queries, top 50, ${hitsFound} with hits`,
      },
      {
        measure: "bm25 p95",
        value: p95,
        unit: "ms",
        detail: `${queryCount} queries, top 50`,
        goal: "< 20 ms",
        met: p95 < 20,
      },
      {
        measure: "bm25 max",
        value: searchMs.at(-1) ?? 0,
        unit: "ms",
        detail: `${queryCount} queries, top 50`,
      },
      {
        measure: "retrieve p50",
        value: percentile(retrieveMs, 50),
        unit: "ms",
        detail: `lexical source, top_k 10, ${where}`,
      },
      {
        measure: "retrieve p95",
        value: percentile(retrieveMs, 95),
        unit: "ms",
        detail: `lexical source, top_k 10, ${where}`,
      },
    ];
  } finally {
    await store?.close();
    rmSync(home, { recursive: true, force: true });
  }
}
