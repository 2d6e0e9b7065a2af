#!/usr/bin/env node
// The installed entry point runs the compiled CLI (built by `npm run build`, which `npm ci` runs).
import "../dist/cli/bin.js";
