import { parseArgs } from "node:util";
import { createApiToken, findOrCreateUser } from "../../store/index.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const TOKEN_HELP = `Usage: ragjudge token create --user NAME [--label TEXT]

Creates a user (if new) and an API token for it, printed once; only its hash is stored.`;

export async function tokenCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      user: { type: "string" },
      label: { type: "string", default: "" },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${TOKEN_HELP}\n`);
    return 0;
  }
  if (positionals[0] !== "create" || !values.user) throw new UsageError(TOKEN_HELP);
  const session = await openStoreSession();
  try {
    const user = await findOrCreateUser(session.store.db, values.user);
    process.stdout.write(`${await createApiToken(session.store.db, user.id, values.label)}\n`);
  } finally {
    await session.close();
  }
  return 0;
}
