// A compact in-memory BM25 index (Robertson/Sparck Jones with the Lucene idf, which is never
// negative). Terms are keyed by two independent 32-bit hashes of their UTF-16 units in an
// open-addressing table (no string Map on the hot path: building from 100,000 stored token
// strings was dominated by it); postings are one compressed-sparse-row array sorted by document
// number, so a query touches only the documents that contain one of its terms and "does document
// d contain term t" is a binary search, which the reranker uses for coverage.

export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation. */
  b: number;
}

/** Lucene's and Elasticsearch's defaults. */
export const BM25_DEFAULTS: Bm25Params = { k1: 1.2, b: 0.75 };

export interface ScoredDocument {
  /** Document number, in the order documents were added. */
  doc: number;
  score: number;
}

// The last hash computed, returned through module state to avoid allocating a pair per token.
let hashA = 0;
let hashB = 0;

/** FNV-1a and a murmur-style mix over text[start, end): 64 bits, collisions negligible. */
function hashRange(text: string, start: number, end: number): void {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = start; i < end; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995);
    b ^= b >>> 15;
  }
  hashA = a | 0;
  hashB = finishB(b, end - start);
}

/** The second hash's final mix, with the length. */
function finishB(b: number, length: number): number {
  const mixed = Math.imul(b ^ length, 0x5bd1e995);
  return (mixed ^ (mixed >>> 13)) | 0;
}

/** Open addressing with linear probing: (hashA, hashB) -> term id. */
class TermTable {
  size = 0;
  private keysA: Int32Array;
  private keysB: Int32Array;
  private ids: Int32Array;
  private mask: number;

  constructor(capacity = 1 << 12) {
    this.keysA = new Int32Array(capacity);
    this.keysB = new Int32Array(capacity);
    this.ids = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
  }

  private slot(a: number, b: number): number {
    let i = (a ^ Math.imul(b, 0x27d4eb2d)) & this.mask;
    for (;;) {
      const id = this.ids[i] as number;
      if (id < 0 || (this.keysA[i] === a && this.keysB[i] === b)) return i;
      i = (i + 1) & this.mask;
    }
  }

  get(a: number, b: number): number {
    return this.ids[this.slot(a, b)] as number;
  }

  getOrAdd(a: number, b: number): number {
    const i = this.slot(a, b);
    const id = this.ids[i] as number;
    if (id >= 0) return id;
    const added = this.size++;
    this.keysA[i] = a;
    this.keysB[i] = b;
    this.ids[i] = added;
    if (this.size * 2 > this.ids.length) this.grow();
    return added;
  }

  private grow(): void {
    const { keysA, keysB, ids } = this;
    const capacity = ids.length * 2;
    this.keysA = new Int32Array(capacity);
    this.keysB = new Int32Array(capacity);
    this.ids = new Int32Array(capacity).fill(-1);
    this.mask = capacity - 1;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      if (id < 0) continue;
      const j = this.slot(keysA[i] as number, keysB[i] as number);
      this.keysA[j] = keysA[i] as number;
      this.keysB[j] = keysB[i] as number;
      this.ids[j] = id;
    }
  }

  termId(term: string): number {
    hashRange(term, 0, term.length);
    return this.get(hashA, hashB);
  }
}

/** A growable Int32Array. */
class IntList {
  length = 0;
  data: Int32Array;
  constructor(capacity = 1024) {
    this.data = new Int32Array(capacity);
  }
  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
}

/** Collects documents, then `build()` freezes them into an index. */
export class Bm25Builder {
  private scratch = new Int32Array(256);
  /** Per document, its distinct terms and their frequencies, documents in order. */
  private readonly pairTerms = new IntList(1 << 16);
  private readonly pairFreqs = new IntList(1 << 16);
  private readonly lengths = new IntList();
  /** Where each document's pairs end. */
  private readonly pairEnds = new IntList();

  /**
   * `terms` is shared when an index is extended (see Bm25Index.extend): the vocabulary only
   * grows, and an older index ignores term ids past its own.
   */
  constructor(private readonly terms: TermTable = new TermTable()) {}

  /** Documents added so far. */
  get size(): number {
    return this.lengths.length;
  }

  /** Adds a document given as tokens; returns its number. */
  add(tokens: readonly string[]): number {
    let n = 0;
    for (const token of tokens) {
      hashRange(token, 0, token.length);
      n = this.collect(n, this.terms.getOrAdd(hashA, hashB));
    }
    return this.finish(n);
  }

  /** Adds a document given as tokens joined by single spaces (as chunks store them). */
  addJoined(tokens: string): number {
    // hashRange inlined: this loop runs once per stored character when an index is built.
    let n = 0;
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    let length = 0;
    for (let i = 0; i <= tokens.length; i++) {
      const unit = i < tokens.length ? tokens.charCodeAt(i) : 32;
      if (unit !== 32) {
        a = Math.imul(a ^ unit, 0x01000193);
        b = Math.imul(b ^ unit, 0x5bd1e995);
        b ^= b >>> 15;
        length++;
        continue;
      }
      if (length > 0) {
        n = this.collect(n, this.terms.getOrAdd(a | 0, finishB(b, length)));
      }
      a = 0x811c9dc5;
      b = 0x9747b28c;
      length = 0;
    }
    return this.finish(n);
  }

  private collect(n: number, id: number): number {
    if (n === this.scratch.length) {
      const grown = new Int32Array(n * 2);
      grown.set(this.scratch);
      this.scratch = grown;
    }
    this.scratch[n] = id;
    return n + 1;
  }

  private finish(n: number): number {
    const doc = this.lengths.length;
    this.lengths.push(n);
    const ids = this.scratch.subarray(0, n).sort();
    let i = 0;
    while (i < n) {
      const id = ids[i] as number;
      let j = i + 1;
      while (j < n && ids[j] === id) j++;
      this.pairTerms.push(id);
      this.pairFreqs.push(j - i);
      i = j;
    }
    this.pairEnds.push(this.pairTerms.length);
    return doc;
  }

  build(params: Bm25Params = BM25_DEFAULTS): Bm25Index {
    const postings = this.postings();
    return new Bm25Index(
      this.terms,
      postings.offsets,
      postings.docs,
      postings.freqs,
      postings.lengths,
      params,
    );
  }

  /** @internal The documents as compressed-sparse-row postings over the term table's terms. */
  postings(): Postings {
    // Locals, not fields, in the loops: they run once per posting.
    const termCount = this.terms.size;
    const pairs = this.pairTerms.length;
    const pairTerms = this.pairTerms.data;
    const pairFreqs = this.pairFreqs.data;
    const pairEnds = this.pairEnds.data;
    const documentCount = this.lengths.length;
    const offsets = new Int32Array(termCount + 1);
    // Document frequencies, then their prefix sums: term t's postings start at offsets[t].
    for (let p = 0; p < pairs; p++) {
      const slot = (pairTerms[p] as number) + 1;
      offsets[slot] = (offsets[slot] as number) + 1;
    }
    for (let t = 0; t < termCount; t++) {
      offsets[t + 1] = (offsets[t + 1] as number) + (offsets[t] as number);
    }
    const docs = new Int32Array(pairs);
    const freqs = new Float32Array(pairs);
    const fill = offsets.slice(0, termCount);
    // Documents are visited in order, so each term's postings come out sorted.
    let p = 0;
    for (let doc = 0; doc < documentCount; doc++) {
      const end = pairEnds[doc] as number;
      for (; p < end; p++) {
        const term = pairTerms[p] as number;
        const at = fill[term] as number;
        fill[term] = at + 1;
        docs[at] = doc;
        freqs[at] = pairFreqs[p] as number;
      }
    }
    return { offsets, docs, freqs, lengths: this.lengths.data.slice(0, documentCount) };
  }
}

/** Term t's postings are docs/freqs[offsets[t], offsets[t + 1]); lengths by document. */
interface Postings {
  offsets: Int32Array;
  docs: Int32Array;
  freqs: Float32Array;
  lengths: Int32Array;
}

export class Bm25Index {
  readonly size: number;
  readonly averageLength: number;
  /** k1 * (1 - b + b * length / averageLength), per document. */
  private readonly norms: Float64Array;
  private readonly idfs: Float64Array;
  private readonly accumulator: Float64Array;
  private readonly touched: Int32Array;
  /** Terms this index knows; the shared table may know more, added by a newer index. */
  private readonly termCount: number;

  /** Use Bm25Builder. */
  constructor(
    private readonly terms: TermTable,
    /** Term t's postings are docs/freqs[offsets[t], offsets[t + 1]). */
    private readonly offsets: Int32Array,
    private readonly docs: Int32Array,
    private readonly freqs: Float32Array,
    private readonly lengths: Int32Array,
    private readonly params: Bm25Params,
  ) {
    this.size = lengths.length;
    let total = 0;
    for (const length of lengths) total += length;
    this.averageLength = this.size > 0 ? total / this.size : 0;
    const avg = this.averageLength || 1;
    this.norms = new Float64Array(this.size);
    for (let d = 0; d < this.size; d++) {
      this.norms[d] = params.k1 * (1 - params.b + (params.b * (lengths[d] ?? 0)) / avg);
    }
    const termCount = offsets.length - 1;
    this.termCount = termCount;
    this.idfs = new Float64Array(termCount);
    for (let t = 0; t < termCount; t++) {
      this.idfs[t] = this.idfFromDf((offsets[t + 1] as number) - (offsets[t] as number));
    }
    this.accumulator = new Float64Array(this.size);
    this.touched = new Int32Array(this.size);
  }

  private idfFromDf(df: number): number {
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** The term's id in this index, or -1. */
  private termId(term: string): number {
    const id = this.terms.termId(term);
    return id < this.termCount ? id : -1;
  }

  /** A builder for documents to add with `extend`: it shares this index's term table. */
  additions(): Bm25Builder {
    return new Bm25Builder(this.terms);
  }

  /**
   * A new index over this index's documents for which `keep` is true (renumbered in order),
   * followed by the documents of `additions` (from `additions()`). One sequential pass over the
   * postings: each term's kept postings are copied (whole, when nothing was removed), then the
   * added ones appended, so no text is read again. This index is left as it was.
   */
  extend(keep: (doc: number) => boolean, additions: Bm25Builder): Bm25Index {
    const { docs, freqs, offsets, size, lengths } = this;
    const added = additions.postings();
    const remap = new Int32Array(size);
    let kept = 0;
    for (let d = 0; d < size; d++) remap[d] = keep(d) ? kept++ : -1;
    const removedAny = kept < size;
    const termCount = added.offsets.length - 1;
    const newOffsets = new Int32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) {
      let df = 0;
      if (t < this.termCount) {
        const end = offsets[t + 1] as number;
        if (!removedAny) df = end - (offsets[t] as number);
        else
          for (let p = offsets[t] as number; p < end; p++)
            if ((remap[docs[p] as number] as number) >= 0) df++;
      }
      df += (added.offsets[t + 1] as number) - (added.offsets[t] as number);
      newOffsets[t + 1] = (newOffsets[t] as number) + df;
    }
    const total = newOffsets[termCount] as number;
    const newDocs = new Int32Array(total);
    const newFreqs = new Float32Array(total);
    for (let t = 0; t < termCount; t++) {
      let at = newOffsets[t] as number;
      if (t < this.termCount) {
        const start = offsets[t] as number;
        const end = offsets[t + 1] as number;
        if (!removedAny) {
          newDocs.set(docs.subarray(start, end), at);
          newFreqs.set(freqs.subarray(start, end), at);
          at += end - start;
        } else {
          for (let p = start; p < end; p++) {
            const doc = remap[docs[p] as number] as number;
            if (doc < 0) continue;
            newDocs[at] = doc;
            newFreqs[at] = freqs[p] as number;
            at++;
          }
        }
      }
      const end = added.offsets[t + 1] as number;
      for (let p = added.offsets[t] as number; p < end; p++) {
        newDocs[at] = (added.docs[p] as number) + kept;
        newFreqs[at] = added.freqs[p] as number;
        at++;
      }
    }
    const newLengths = new Int32Array(kept + added.lengths.length);
    for (let d = 0; d < size; d++) {
      const to = remap[d] as number;
      if (to >= 0) newLengths[to] = lengths[d] as number;
    }
    newLengths.set(added.lengths, kept);
    return new Bm25Index(this.terms, newOffsets, newDocs, newFreqs, newLengths, this.params);
  }

  /** Inverse document frequency; a term in no document gets the largest value (df = 0). */
  idf(term: string): number {
    const id = this.termId(term);
    return id < 0 ? this.idfFromDf(0) : (this.idfs[id] as number);
  }

  /** Documents containing the term. */
  documentFrequency(term: string): number {
    const id = this.termId(term);
    return id < 0 ? 0 : (this.offsets[id + 1] as number) - (this.offsets[id] as number);
  }

  contains(doc: number, term: string): boolean {
    const id = this.termId(term);
    if (id < 0) return false;
    let lo = this.offsets[id] as number;
    let hi = (this.offsets[id + 1] as number) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = this.docs[mid] as number;
      if (value === doc) return true;
      if (value < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }

  /**
   * The `k` best documents for the query terms (repeats count once), best first; ties go to the
   * lower document number. Documents matching no term are never returned.
   */
  search(queryTerms: readonly string[], k: number): ScoredDocument[] {
    if (k <= 0 || this.size === 0) return [];
    const { k1 } = this.params;
    const { accumulator: acc, touched, docs, freqs, norms } = this;
    let touchedCount = 0;
    for (const term of new Set(queryTerms)) {
      const id = this.termId(term);
      if (id < 0) continue;
      const idf = this.idfs[id] as number;
      const end = this.offsets[id + 1] as number;
      for (let p = this.offsets[id] as number; p < end; p++) {
        const doc = docs[p] as number;
        const tf = freqs[p] as number;
        const prev = acc[doc] as number;
        if (prev === 0) touched[touchedCount++] = doc;
        acc[doc] = prev + (idf * tf * (k1 + 1)) / (tf + (norms[doc] as number));
      }
    }
    const top = topK(acc, touched, touchedCount, k);
    for (let i = 0; i < touchedCount; i++) acc[touched[i] as number] = 0;
    return top;
  }
}

/** The k highest of acc[touched[0..count)] via a size-k min-heap; best first. */
function topK(acc: Float64Array, touched: Int32Array, count: number, k: number): ScoredDocument[] {
  const heapDocs = new Int32Array(Math.min(k, count));
  const heapScores = new Float64Array(heapDocs.length);
  let size = 0;
  // "a ranks below b": lower score, or equal score and higher document number.
  const below = (sa: number, da: number, sb: number, db: number) =>
    sa < sb || (sa === sb && da > db);
  const siftDown = (start: number) => {
    let i = start;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (
        l < size &&
        below(
          heapScores[l] as number,
          heapDocs[l] as number,
          heapScores[m] as number,
          heapDocs[m] as number,
        )
      )
        m = l;
      if (
        r < size &&
        below(
          heapScores[r] as number,
          heapDocs[r] as number,
          heapScores[m] as number,
          heapDocs[m] as number,
        )
      )
        m = r;
      if (m === i) return;
      const s = heapScores[i] as number;
      const d = heapDocs[i] as number;
      heapScores[i] = heapScores[m] as number;
      heapDocs[i] = heapDocs[m] as number;
      heapScores[m] = s;
      heapDocs[m] = d;
      i = m;
    }
  };
  for (let t = 0; t < count; t++) {
    const doc = touched[t] as number;
    const score = acc[doc] as number;
    if (size < heapDocs.length) {
      // Sift up.
      let i = size++;
      heapDocs[i] = doc;
      heapScores[i] = score;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (
          !below(
            heapScores[i] as number,
            heapDocs[i] as number,
            heapScores[parent] as number,
            heapDocs[parent] as number,
          )
        )
          break;
        const s = heapScores[i] as number;
        const d = heapDocs[i] as number;
        heapScores[i] = heapScores[parent] as number;
        heapDocs[i] = heapDocs[parent] as number;
        heapScores[parent] = s;
        heapDocs[parent] = d;
        i = parent;
      }
    } else if (below(heapScores[0] as number, heapDocs[0] as number, score, doc)) {
      heapScores[0] = score;
      heapDocs[0] = doc;
      siftDown(0);
    }
  }
  const out: ScoredDocument[] = [];
  for (let i = 0; i < size; i++)
    out.push({ doc: heapDocs[i] as number, score: heapScores[i] as number });
  out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  return out;
}
