// Bundles the CLI into one file, dist/cli/ragjudge.js, which bin/ragjudge.js runs. Loading the
// ~1,200 module files of dist/ and node_modules cost a process ~0.6 s of CPU before any command
// ran (0.5 s for `ragjudge --help`); one file costs ~0.25 s (docs/deploy.md). The test suite starts
// about a hundred CLI processes, and a user's `ragjudge gate` in a script pays it every time.
//
// Left outside the bundle, as installed packages: PGlite, whose WebAssembly and data files are
// found beside its own modules, and unpdf (pdf.js). Paths the code resolves from import.meta.url
// are written relative to dist/<folder>/, so they mean the same from dist/cli/ragjudge.js: the
// PGlite thread and the new-home child run the compiled modules in dist/store/ (tsc's output).

import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/bin.ts"],
  outfile: "dist/cli/ragjudge.js",
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
