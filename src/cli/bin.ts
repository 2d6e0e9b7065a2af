import { tuneHeapGrowth } from "./heap.js";
import { EXIT } from "./exit-codes.js";
import { main } from "./main.js";
import { redactSecrets } from "../llm/index.js";
import { keepWasmOnLiftoff } from "../store/index.js";

try {
  tuneHeapGrowth();
  // serve and worker live for hours: V8's optimizing tier pays its compile back there.
  keepWasmOnLiftoff({ longLived: ["serve", "worker"].includes(process.argv[2] ?? "") });
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`ragjudge: ${redactSecrets((error as Error).stack ?? String(error))}\n`);
  // A crash is not a quality verdict: CI must not read it as "a check failed".
  process.exitCode = EXIT.incomplete;
}
// The command is done and its store closed. Should a library leave a handle open (a pool client, a
// timer), exit anyway rather than hang a script or CI job; the timer itself keeps nothing alive.
setTimeout(() => process.exit(), 3_000).unref();
