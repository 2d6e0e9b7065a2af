import { startTestBot, type TestBot } from "../../support/test-bot.js";
import { type AppServer, startAppServer } from "./app-server.js";
import { type Browser, launchBrowser } from "./browser.js";
import { e2eDatabase } from "./database.js";
import { lantingCollection, lantingQuestionSet, waitForRun } from "./fixtures.js";

/** What most browser tests start from: a server, a browser signed in, a bot, the Lanting set. */
export interface E2eSession {
  server: AppServer;
  browser: Browser;
  /** An HTTP bot on 127.0.0.1 (echoes the question with a source). */
  bot: TestBot;
  collectionId: string;
  setId: string;
  /** Starts a run of the Lanting set with the offline judge and waits for it to complete. */
  finishedRun(
    name: string,
    bot?: { kind: "builtin" } | { kind: "http"; url: string },
    /** Default: the offline judge. */
    judges?: string[],
  ): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts `ragjudge serve` on a fresh database, Chromium and a test bot together, uploads the
 * bundled Lanting corpus and questions, and signs the browser in through the printed login link.
 */
export async function startE2eSession(options: { botDelayMs: number }): Promise<E2eSession> {
  const [server, browser, bot] = await Promise.all([
    e2eDatabase().then((databaseUrl) => startAppServer({ databaseUrl })),
    launchBrowser(),
    startTestBot({ delayMs: options.botDelayMs }),
  ]);
  const collectionId = await lantingCollection(server);
  const setId = await lantingQuestionSet(server, collectionId);
  const page = await browser.newPage();
  await page.goto(server.loginUrl);
  await page.waitForURL(/\/evaluations\/list$/);
  await page.close();
  return {
    server,
    browser,
    bot,
    collectionId,
    setId,
    async finishedRun(name, botConfig, judges = ["offline"]) {
      const { id } = await server.json<{ id: string }>("/api/v1/evaluations", {
        method: "POST",
        json: {
          name,
          question_set_id: setId,
          collection_id: collectionId,
          judges,
          ...(botConfig ? { bot: botConfig } : {}),
        },
      });
      const status = await waitForRun(server, id);
      if (status !== "COMPLETED") throw new Error(`run ${name} ended ${status}`);
      return id;
    },
    async close() {
      await browser.close();
      await bot.close();
      await server.stop();
    },
  };
}
