#!/usr/bin/env node
// The installed entry point runs the CLI bundled into one file by `npm run build` (which `npm ci`
// runs): scripts/bundle-cli.mjs says why. On Node 22.1+ V8's compiled code for it is kept on disk
// (Node's compile cache, in the OS temp folder): ~50 ms less CPU per start, measured on Node 24.
import module from "node:module";

module.enableCompileCache?.();
await import("../dist/cli/ragjudge.js");
