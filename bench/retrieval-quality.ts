// Retrieval quality (issue 26 §4) on real paragraphs with known relevant ids. The repository holds
// no SQuAD paragraphs, so the known-item questions come from BEGIN's dev sets (bench/data/public/
// begin-dev: Wizard of Wikipedia and CMU-DoG CC-BY-4.0, Topical-Chat CDLA-Sharing-1.0; see their
// LICENSE and NOTICE files): every distinct knowledge paragraph of the three corpora is one
// document of one collection, and each distinct user message is a question whose relevant ids are
// the paragraphs it was answered from, as a SQuAD question's is the paragraph it was written on.
// The built-in bot's retriever (lexical source, as without an embedder) answers at top 10, and
// hit rate, recall, precision, MRR and nDCG are computed as runs compute them.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRetriever, ingestDocuments, type ParsedDocument } from "../src/rag/index.js";
import { itemRetrieval } from "../src/evals/runs/index.js";
import { findOrCreateUser, openStore } from "../src/store/index.js";
import { BEGIN_CORPORA, type BeginCorpus, readBegin } from "./judges-public.js";
import type { RetrievalBenchRow } from "./retrieval.js";

const K = 10;
const MEASURES = [
  ["hit rate@10", "hit_rate"],
  ["recall@10", "recall"],
  ["precision@10", "precision"],
  ["MRR", "mrr"],
  ["nDCG@10", "ndcg"],
] as const;
type Measure = (typeof MEASURES)[number][1];

interface KnownItem {
  corpus: BeginCorpus;
  question: string;
  relevant: string[];
}

/** The paragraphs as documents (their id: corpus and number) and the questions over them. */
export function beginKnownItems(): { documents: ParsedDocument[]; questions: KnownItem[] } {
  const documents: ParsedDocument[] = [];
  const idOf = new Map<string, string>();
  const questions = new Map<string, KnownItem>();
  for (const corpus of Object.keys(BEGIN_CORPORA) as BeginCorpus[]) {
    for (const item of readBegin(corpus)) {
      const knowledge = item.knowledge.trim();
      const message = item.message.trim();
      if (knowledge === "" || message === "") continue;
      let id = idOf.get(knowledge);
      if (!id) {
        id = `begin/${corpus}/${documents.length}`;
        idOf.set(knowledge, id);
        documents.push({
          source: id,
          external_id: id,
          kind: "text",
          title: "",
          blocks: [{ text: knowledge }],
          metadata: {},
        });
      }
      // Several systems answered one message: it is one question, its paragraphs all relevant.
      const key = `${corpus}\u0000${message}`;
      const known = questions.get(key) ?? { corpus, question: message, relevant: [] };
      if (!known.relevant.includes(id)) known.relevant.push(id);
      questions.set(key, known);
    }
  }
  return { documents, questions: [...questions.values()] };
}

export async function benchRetrievalQuality(
  options: { onProgress?: (message: string) => void } = {},
): Promise<RetrievalBenchRow[]> {
  const home = mkdtempSync(join(tmpdir(), "ragjudge-bench-retrieval-quality-"));
  const store = await openStore({ home });
  try {
    const { db } = store;
    const user = await findOrCreateUser(db, "bench-retrieval-quality");
    const { documents, questions } = beginKnownItems();
    const ingested = await ingestDocuments({
      db,
      workspaceId: user.id,
      collection: "begin-paragraphs",
      documents,
    });
    options.onProgress?.(
      `${documents.length} paragraphs in ${ingested.chunks.added} chunks; ${questions.length} questions`,
    );
    const retrieve = createRetriever({ db, workspaceId: user.id });
    const groups = new Map<string, { n: number; sums: Record<Measure, number> }>();
    const add = (group: string, metrics: Record<Measure, number>) => {
      const sum = groups.get(group) ?? {
        n: 0,
        sums: { hit_rate: 0, recall: 0, precision: 0, mrr: 0, ndcg: 0 },
      };
      sum.n++;
      for (const [, name] of MEASURES) sum.sums[name] += metrics[name];
      groups.set(group, sum);
    };
    for (const item of questions) {
      const { fused_results: hits } = await retrieve({
        collection_id: ingested.collection_id,
        query: item.question,
        sources: ["lexical"],
        top_k: K,
      });
      const contexts = hits.map((hit) => ({
        node_id: hit.node_id,
        content: hit.content,
        ...(hit.external_id !== undefined ? { document_id: hit.external_id } : {}),
      }));
      const metrics = itemRetrieval({ relevant_ids: item.relevant }, contexts, K);
      const values = {
        hit_rate: metrics?.hit_rate ?? 0,
        recall: metrics?.recall ?? 0,
        precision: metrics?.precision ?? 0,
        mrr: metrics?.mrr ?? 0,
        ndcg: metrics?.ndcg ?? 0,
      };
      add("all", values);
      add(item.corpus, values);
    }
    const rows: RetrievalBenchRow[] = [];
    for (const [group, { n, sums }] of groups) {
      for (const [measure, name] of MEASURES) {
        rows.push({
          measure: `${measure} (${group})`,
          value: sums[name] / n,
          unit: "",
          detail: `${n} questions (BEGIN dev messages), ${documents.length} paragraphs; relevant: the paragraph(s) each was answered from`,
        });
      }
    }
    return rows;
  } finally {
    await store.close();
    rmSync(home, { recursive: true, force: true });
  }
}
