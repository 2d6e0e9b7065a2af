// `npm run build` runs this after tsc: see PGLITE_TEMPLATE.
import { buildPgliteTemplate, PGLITE_TEMPLATE } from "./template.js";
import { keepWasmOnLiftoff } from "./wasm-tiers.js";

keepWasmOnLiftoff();
await buildPgliteTemplate();
process.stdout.write(`built ${PGLITE_TEMPLATE}\n`);
