// Mermaid flowcharts of the loops, drawn from the same specs the runner executes, with the path
// of one run highlighted: visited nodes filled, taken edges thick, repeats counted (×n).

import { answerMachine } from "./answer-loop.js";
import { DEFAULT_LOOPS_CONFIG, type LoopsConfig } from "./config.js";
import { qualityMachine } from "./quality-loop.js";
import { END, type MachineSpec, type TraceStep } from "./state-machine.js";

const START_ID = "START";
const END_ID = "END";
const BUDGET_ID = "budget";
const TAKEN = "stroke:#e4572e,stroke-width:3px";

interface DrawnEdge {
  from: string;
  to: string;
  label?: string;
  dashed?: boolean;
}

function idOf(name: string): string {
  if (name === END) return END_ID;
  return name.replace(/[^A-Za-z0-9_]/g, "_");
}

/** Mermaid's entity codes keep &, <, > and quotes from being read as markup. */
function escapeLabel(text: string): string {
  return text
    .replaceAll("&", "#amp;")
    .replaceAll('"', "#quot;")
    .replaceAll("<", "#lt;")
    .replaceAll(">", "#gt;");
}

// Any machine's spec is drawable, whatever its state type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySpec = MachineSpec<any, any, string, string>;

function staticEdges(spec: AnySpec): DrawnEdge[] {
  const edges: DrawnEdge[] = [{ from: START_ID, to: spec.start }];
  for (const node of Object.keys(spec.nodes)) {
    const edge = spec.edges[node];
    if (typeof edge === "string") {
      edges.push({ from: node, to: edge });
    } else if (edge !== undefined) {
      for (const [to, label] of Object.entries(edge.targets) as [string, string][]) {
        edges.push({ from: node, to, label });
      }
    }
  }
  return edges;
}

/**
 * The flowchart of `spec`; with a trace, the path it took is highlighted. `budgetLabel` names the
 * budget exit, drawn as a dashed edge into the timeout exit.
 */
export function machineMermaid(
  spec: AnySpec,
  trace: readonly TraceStep[] = [],
  budgetLabel = "budget exhausted (any node)",
): string {
  const edges = staticEdges(spec);
  edges.push({ from: BUDGET_ID, to: spec.timeoutExit, dashed: true });
  const steps = trace.filter((step) => step.machine === spec.name);

  const nodeVisits = new Map<string, number>();
  const edgeUses = new Map<number, number>();
  const useEdge = (from: string, to: string) => {
    let index = edges.findIndex((e) => e.from === from && e.to === to);
    if (index < 0) {
      edges.push({ from, to, dashed: true });
      index = edges.length - 1;
    }
    edgeUses.set(index, (edgeUses.get(index) ?? 0) + 1);
  };
  const first = steps[0];
  if (first) useEdge(START_ID, first.node);
  for (const step of steps) {
    nodeVisits.set(step.node, (nodeVisits.get(step.node) ?? 0) + 1);
    if (step.timed_out) {
      nodeVisits.set(BUDGET_ID, 1);
      useEdge(BUDGET_ID, step.next);
    } else {
      useEdge(step.node, step.next);
    }
    if (spec.exits.includes(step.next)) nodeVisits.set(step.next, 1);
  }

  const lines = ["flowchart TD"];
  lines.push(`  ${START_ID}([start])`);
  for (const node of Object.keys(spec.nodes)) {
    const visits = nodeVisits.get(node) ?? 0;
    const label = visits > 1 ? `${node} ×${visits}` : node;
    lines.push(`  ${idOf(node)}["${escapeLabel(label)}"]`);
  }
  for (const exit of spec.exits) {
    lines.push(`  ${idOf(exit)}([${exit === END ? "END" : exit}])`);
  }
  lines.push(`  ${BUDGET_ID}{{"${escapeLabel(budgetLabel)}"}}`);
  edges.forEach((edge, index) => {
    const uses = edgeUses.get(index) ?? 0;
    const count = uses > 1 ? (edge.label ? ` (×${uses})` : `×${uses}`) : "";
    const text = `${edge.label ?? ""}${count}`;
    const label = text ? `|"${escapeLabel(text)}"|` : "";
    const arrow = edge.dashed ? "-.->" : "-->";
    lines.push(`  ${idOf(edge.from)} ${arrow}${label} ${idOf(edge.to)}`);
  });
  const taken = [...edgeUses.keys()].sort((a, b) => a - b);
  if (taken.length > 0) {
    lines.push("  classDef taken fill:#fde3d6,stroke:#e4572e,stroke-width:2px");
    const visited = [START_ID, ...nodeVisits.keys()].map(idOf);
    lines.push(`  class ${[...new Set(visited)].join(",")} taken`);
    lines.push(`  linkStyle ${taken.join(",")} ${TAKEN}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Seed 001's loop; with a trace (an ask's or a quality run's), its path highlighted. */
export function qualityLoopMermaid(
  trace: readonly TraceStep[] = [],
  config: LoopsConfig = DEFAULT_LOOPS_CONFIG,
): string {
  return machineMermaid(
    qualityMachine(config.quality),
    trace,
    `total latency >= ${config.quality.budget_ms / 1000} s (any node)`,
  );
}

/** Seed 000's loop; with a trace, its path highlighted. */
export function answerLoopMermaid(
  trace: readonly TraceStep[] = [],
  config: LoopsConfig = DEFAULT_LOOPS_CONFIG,
): string {
  return machineMermaid(
    answerMachine(config.answer),
    trace,
    `answer budget ${config.answer.budget_ms / 1000} s exhausted`,
  );
}
