// A compact in-memory BM25 index (Robertson/Sparck Jones with the Lucene idf, which is never
// negative). Postings are typed arrays sorted by document number, so a query touches only the
// documents that contain one of its terms, and "does document d contain term t" is a binary
// search, which the reranker uses for coverage.

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

/** Collects documents, then `build()` freezes them into an index. */
export class Bm25Builder {
  private readonly termIds = new Map<string, number>();
  private readonly postingDocs: number[][] = [];
  private readonly postingFreqs: number[][] = [];
  private readonly lengths: number[] = [];
  private readonly counts = new Map<number, number>();

  /** Adds a document; returns its number. */
  add(tokens: readonly string[]): number {
    const doc = this.lengths.length;
    this.lengths.push(tokens.length);
    const counts = this.counts;
    counts.clear();
    for (const token of tokens) {
      let id = this.termIds.get(token);
      if (id === undefined) {
        id = this.postingDocs.length;
        this.termIds.set(token, id);
        this.postingDocs.push([]);
        this.postingFreqs.push([]);
      }
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    for (const [id, count] of counts) {
      (this.postingDocs[id] as number[]).push(doc);
      (this.postingFreqs[id] as number[]).push(count);
    }
    return doc;
  }

  build(params: Bm25Params = BM25_DEFAULTS): Bm25Index {
    return new Bm25Index(
      this.termIds,
      this.postingDocs.map((docs) => Int32Array.from(docs)),
      this.postingFreqs.map((freqs) => Float32Array.from(freqs)),
      Float64Array.from(this.lengths),
      params,
    );
  }
}

export class Bm25Index {
  readonly size: number;
  readonly averageLength: number;
  /** k1 * (1 - b + b * length / averageLength), per document. */
  private readonly norms: Float64Array;
  private readonly idfs: Float64Array;
  private readonly accumulator: Float64Array;
  private readonly touched: Int32Array;

  constructor(
    private readonly termIds: ReadonlyMap<string, number>,
    private readonly postingDocs: readonly Int32Array[],
    private readonly postingFreqs: readonly Float32Array[],
    lengths: Float64Array,
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
    this.idfs = new Float64Array(postingDocs.length);
    for (let t = 0; t < postingDocs.length; t++) {
      this.idfs[t] = this.idfFromDf((postingDocs[t] as Int32Array).length);
    }
    this.accumulator = new Float64Array(this.size);
    this.touched = new Int32Array(this.size);
  }

  private idfFromDf(df: number): number {
    return Math.log(1 + (this.size - df + 0.5) / (df + 0.5));
  }

  /** Inverse document frequency; a term in no document gets the largest value (df = 0). */
  idf(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? this.idfFromDf(0) : (this.idfs[id] ?? 0);
  }

  /** Documents containing the term. */
  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : (this.postingDocs[id] as Int32Array).length;
  }

  contains(doc: number, term: string): boolean {
    const id = this.termIds.get(term);
    if (id === undefined) return false;
    const docs = this.postingDocs[id] as Int32Array;
    let lo = 0;
    let hi = docs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = docs[mid] as number;
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
    const acc = this.accumulator;
    const touched = this.touched;
    let touchedCount = 0;
    for (const term of new Set(queryTerms)) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const idf = this.idfs[id] as number;
      const docs = this.postingDocs[id] as Int32Array;
      const freqs = this.postingFreqs[id] as Float32Array;
      const norms = this.norms;
      for (let p = 0; p < docs.length; p++) {
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
