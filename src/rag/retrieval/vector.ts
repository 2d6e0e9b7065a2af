// Exact cosine search over a collection's stored embeddings: vectors are normalised once when the
// index is built, so a query is one dot product per chunk. At the sizes ragjudge keeps per
// collection (tens of thousands of chunks) this is a few milliseconds and needs no extension.

export interface VectorHit {
  node_id: string;
  cosine: number;
}

export class VectorIndex {
  readonly size: number;

  private constructor(
    private readonly ids: readonly string[],
    readonly dimensions: number,
    private readonly matrix: Float32Array,
  ) {
    this.size = ids.length;
  }

  /**
   * Rows whose length differs from the first row's, or whose norm is zero, are left out: vectors
   * of different sizes come from different models and cannot be compared.
   */
  static fromRows(rows: Iterable<{ id: string; embedding: readonly number[] }>): VectorIndex {
    const ids: string[] = [];
    const vectors: Float32Array[] = [];
    let dimensions = 0;
    for (const row of rows) {
      if (dimensions === 0) dimensions = row.embedding.length;
      if (row.embedding.length !== dimensions || dimensions === 0) continue;
      const vector = normalised(row.embedding);
      if (!vector) continue;
      ids.push(row.id);
      vectors.push(vector);
    }
    const matrix = new Float32Array(ids.length * dimensions);
    vectors.forEach((vector, i) => {
      matrix.set(vector, i * dimensions);
    });
    return new VectorIndex(ids, dimensions, matrix);
  }

  /** The `k` most similar chunks, best first (ties by index order); [] for a mismatched query. */
  search(query: readonly number[], k: number): VectorHit[] {
    if (k <= 0 || this.size === 0 || query.length !== this.dimensions) return [];
    const q = normalised(query);
    if (!q) return [];
    const dims = this.dimensions;
    const scores = new Float64Array(this.size);
    for (let i = 0; i < this.size; i++) {
      let dot = 0;
      const base = i * dims;
      for (let j = 0; j < dims; j++) dot += (q[j] as number) * (this.matrix[base + j] as number);
      scores[i] = dot;
    }
    return topByScore(scores, k).map((i) => ({
      node_id: this.ids[i] as string,
      cosine: scores[i] as number,
    }));
  }
}

function normalised(vector: readonly number[]): Float32Array | undefined {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (!(norm > 0) || !Number.isFinite(norm)) return undefined;
  const scale = 1 / Math.sqrt(norm);
  return Float32Array.from(vector, (value) => value * scale);
}

/** Indexes of the k highest scores, best first (ties by lower index): insertion into a short list. */
function topByScore(scores: Float64Array, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i] as number;
    if (best.length === k && score <= (scores[best[best.length - 1] as number] as number)) continue;
    let at = best.length;
    while (at > 0 && (scores[best[at - 1] as number] as number) < score) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
