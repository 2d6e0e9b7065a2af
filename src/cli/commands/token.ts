import { parseArgs } from "node:util";
import {
  createApiToken,
  createIngestKey,
  findMembership,
  findOrCreateUser,
} from "../../store/index.js";
import { openStoreSession } from "../store-session.js";
import { UsageError } from "../usage-error.js";

export const TOKEN_HELP = `Usage: ragjudge token create --user NAME [--workspace ID] [--label TEXT] [--ingest]

Creates a user (if new) and an API token for it, printed once; only its hash is stored.
The token acts in the user's personal workspace, or in --workspace, a workspace the user is a
member of (docs/teams.md).
--ingest makes a write-only ingest key instead: it can send production answers
(POST /api/v1/answers, ragjudge/client) and read nothing.`;

export async function tokenCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      user: { type: "string" },
      workspace: { type: "string" },
      label: { type: "string", default: "" },
      ingest: { type: "boolean", default: false },
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
    const workspaceId = values.workspace ?? user.id;
    if (!(await findMembership(session.store.db, user.id, workspaceId))) {
      throw new UsageError(
        `--workspace: ${values.user} is not a member of workspace ${workspaceId}`,
      );
    }
    const token = values.ingest
      ? (await createIngestKey(session.store.db, { workspaceId, userId: user.id }, values.label))
          .key
      : await createApiToken(session.store.db, user.id, values.label, workspaceId);
    process.stdout.write(`${token}\n`);
  } finally {
    await session.close();
  }
  return 0;
}
