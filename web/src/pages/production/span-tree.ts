// A trace's spans as a tree by their parents, each level in start order. A span whose parent is
// not in the record (an exporter dropped it) is shown as a root rather than lost.

export interface SpanSummary {
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  start_ms: number;
  duration_ms: number;
}

export interface SpanNode {
  span: SpanSummary;
  children: SpanNode[];
}

export function spanTree(spans: readonly SpanSummary[]): SpanNode[] {
  const nodes = new Map(spans.map((span) => [span.span_id, { span, children: [] as SpanNode[] }]));
  const roots: SpanNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.span.parent_span_id ? nodes.get(node.span.parent_span_id) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const sort = (list: SpanNode[]) => {
    list.sort((a, b) => a.span.start_ms - b.span.start_ms);
    for (const node of list) sort(node.children);
  };
  sort(roots);
  return roots;
}
