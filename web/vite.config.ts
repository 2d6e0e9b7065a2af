import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The app is served by `ragjudge serve` from dist/web on the API's own origin: no dev proxy,
// no base path, hashed asset names the server may cache for a year.
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: {
    // The question and answers file readers (src/evals/questions/parse-file.ts, which
    // src/evals/answers/parse-file.ts reads files with) are the server's; csv-parse's Node build
    // uses Node's Buffer, its browser build carries its own.
    alias: [{ find: /^csv-parse\/sync$/, replacement: "csv-parse/browser/esm/sync" }],
  },
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    // Mermaid's chunks (its parser alone is 650 kB) load only when a diagram is drawn; what the
    // first page loads is measured by `npm run bench -- web`.
    chunkSizeWarningLimit: 700,
  },
});
