// Bundles the CLI into one file, dist/cli/ragjudge.js, which bin/ragjudge.js runs, and the PGlite
// thread's module beside it (dist/cli/pglite-host.js), and so the upload parse thread's
// (dist/cli/parse-host.js, dist/cli/question-import-host.js). Loading the ~1,200 module files of dist/ and
// node_modules cost a process ~0.6 s of CPU before any command ran (`ragjudge --help` took 0.5 s);
// the bundle costs ~0.25 s, and the thread's module 0.06 s instead of 0.15 s (docs/deploy.md).
// The test suite starts about a hundred CLI processes, and a script calling `ragjudge gate` pays
// it every time.
//
// Left outside the bundle, as installed packages: PGlite, whose WebAssembly and data files are
// found beside its own modules, and unpdf (pdf.js). Paths the code resolves from import.meta.url
// are written relative to dist/<folder>/, so they mean the same from dist/cli/; the new-home
// child runs the compiled modules in dist/store/ (tsc's output).

import { build } from "esbuild";

await build({
  entryPoints: {
    ragjudge: "src/cli/bin.ts",
    "pglite-host": "src/store/pglite-host.ts",
    "parse-host": "src/rag/ingest/parse-host.ts",
    "question-import-host": "src/evals/questions/question-import-host.ts",
  },
  outdir: "dist/cli",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  external: ["@electric-sql/pglite", "unpdf"],
  // CommonJS packages in an ES module bundle (pg, pg-boss) call `require` for Node's builtins.
  banner: {
    js: 'import { createRequire as createRequireForBundle } from "node:module"; const require = createRequireForBundle(import.meta.url);',
  },
  sourcemap: "linked",
  logLevel: "warning",
});
