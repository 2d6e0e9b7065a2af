import type { Mermaid } from "mermaid";

// Mermaid's renderer is large (well over 1 MB with its layout code), so it is fetched only when a
// diagram is about to be drawn, never with the app's first page.

let loading: Promise<Mermaid> | undefined;

/** The Mermaid library, loaded and configured once. */
function loadMermaid(): Promise<Mermaid> {
  loading ??= import("mermaid").then(
    ({ default: mermaid }) => {
      mermaid.initialize({
        startOnLoad: false,
        // Labels are escaped and stripped of scripts and links; no click handlers.
        securityLevel: "strict",
        theme: "neutral",
        // The page's own fonts: nothing is fetched from elsewhere.
        fontFamily: "system-ui, sans-serif",
      });
      return mermaid;
    },
    (error: unknown) => {
      // A failed download may succeed on the next diagram.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

let drawn = 0;

/** The SVG markup of a Mermaid diagram; rejects with Mermaid's message if it cannot be drawn. */
export async function renderMermaid(source: string): Promise<string> {
  const mermaid = await loadMermaid();
  drawn += 1;
  const { svg } = await mermaid.render(`mermaid-diagram-${drawn}`, source);
  return svg;
}
