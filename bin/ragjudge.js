#!/usr/bin/env node
// The installed entry point runs the CLI bundled into one file by `npm run build` (which `npm ci`
// runs): scripts/bundle-cli.mjs says why.
import "../dist/cli/ragjudge.js";
