import { main } from "./main.js";

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`ragjudge: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
}
