import { join } from "node:path";
import { reminderActions } from "./reminders.ts";
import { LogLevel, LogService, MatrixClient, SimpleFsStorageProvider, type IStorageProvider } from "matrix-bot-sdk";
import { DurableSyncClient, resumeMatrix, storeSync } from "./inbox.ts";
import { ConfigError, describeError, type Lilo, type Logger } from "../../core/index.ts";
import { ensurePrivateDir } from "../../core/internal.ts";
import type { RunningAdapter } from "../adapter.ts";
import type { LiveTiming, MatrixContext } from "./context.ts";
import { onEvent, onInvite, type Gate, type RawEvent } from "./events.ts";
import { sdkInfo } from "./client.ts";
import { RoomPrivacy } from "./privacy.ts";
import { RoomQueue } from "./queue.ts";
import { BotState } from "./state.ts";
import { MATRIX_TEXTS } from "./texts.ts";
import { MatrixTransport } from "./transport.ts";
import { matrixConfig } from "./config.ts";
import { announceDevice } from "./crypto/announce.ts";
import { CRYPTO_TEXTS } from "./crypto/crypto-texts.ts";
import { sendMarkdown } from "./send.ts";
import type { MatrixE2ee } from "./crypto/e2ee.ts";

import { startE2ee, type E2eeStart } from "./crypto/start-e2ee.ts";

/**
 * The Matrix adapter (matrix-bot-sdk, access-token login). It joins rooms
 * only on invitation from an allowed user, turns messages into core turns,
 * 👍/👎 reactions into answers, and registers the "matrix" push transport.
 *
 * End-to-end encryption (MATRIX_ENCRYPTION, on by default) is Lilo's own
 * device driven by the Matrix Rust crypto (crypto/): it decrypts each sync
 * before anything else reads it and encrypts what she sends to encrypted
 * rooms. The SDK's own crypto is not used (its native binding cannot be
 * installed from the npm registry; crypto-stub/ stands in for it). With
 * encryption off, encrypted rooms get a one-time notice instead.
 */

export interface MatrixAdapterOptions {
  /** Sync token and bot state; default `<dataDir>/matrix-bot.json` (tests pass a MemoryStorageProvider). */
  storage?: IStorageProvider;
  /** The pace of answers shown as they are written (tests shorten it). */
  liveTiming?: LiveTiming;
}

/** The running adapter; `client` is exposed for tests and diagnostics. */
export interface RunningMatrix extends RunningAdapter {
  client: MatrixClient;
}

/** Starts syncing; resolves once the client is logged in and the first sync is under way. */
export async function startMatrix(lilo: Lilo, logger: Logger, options: MatrixAdapterOptions = {}): Promise<RunningMatrix> {
  const { homeserverUrl, accessToken, allowedUsers, maxMessageChars, encryption } = matrixConfig(lilo.config);
  if (!homeserverUrl || !accessToken) throw new ConfigError("Matrix needs MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN");
  if (Object.keys(allowedUsers).length === 0) logger.warn("MATRIX_ALLOWED_USERS is empty: the Matrix bot will ignore everyone");
  routeSdkLogs(logger);
  const storage = options.storage ?? fileStorage(lilo.config.dataDir);
  // No crypto store for the SDK: end-to-end encryption is Lilo's own device (crypto/).
  const client = new DurableSyncClient(homeserverUrl, accessToken, storage, lilo.contacts, logger);
  const botUserId = await client.getUserId();
  const privacy = new RoomPrivacy(client, botUserId, allowedUsers, logger);
  const state = await BotState.load(storage);
  const queue = new RoomQueue(logger);
  let stopped = false;
  // After stop() the SDK still emits the events of a sync already in flight. They are not handled while the
  // database closes; their messages were stored with the sync (storeSync) and are answered on the next start.
  const run = (roomId: string, job: () => Promise<void>) => (stopped ? undefined : queue.run(roomId, job));
  const crypto = encryption ? await startEncryption(lilo, client, storage, state, run, logger) : undefined;
  const ctx: MatrixContext = {
    lilo,
    client,
    logger,
    maxMessageChars,
    privacy,
    state,
    texts: MATRIX_TEXTS[lilo.config.persona.language],
    e2ee: crypto?.e2ee,
    liveTiming: options.liveTiming,
  };
  const gate: Gate = {
    botUserId,
    allowedUsers,
    // Without a sync token the server sends recent history first; only newer messages get answers.
    notBefore: (await Promise.resolve(storage.getSyncToken())) ? 0 : Date.now(),
    invitedAt: new Map(),
  };
  client.on("room.invite", (roomId: string, ev: RawEvent) => run(roomId, () => onInvite(ctx, gate, roomId, ev)));
  client.on("room.leave", (roomId: string) =>
    run(roomId, async () => {
      gate.invitedAt.delete(roomId);
      privacy.forget(roomId);
      await ctx.state.dropRoom(roomId);
    }),
  );
  client.on("room.event", (roomId: string, ev: RawEvent) => run(roomId, () => onEvent(ctx, gate, roomId, ev)));
  lilo.push.registerTransport(new MatrixTransport(client, maxMessageChars, privacy, (id) => reminderActions(lilo, id)));
  // What a crash left open is answered first; then each sync's messages are stored before its token is saved.
  await resumeMatrix(ctx, allowedUsers, logger);
  if (crypto?.news) await announceDevice(ctx, crypto.news);
  client.onSync = async (response) => {
    await ctx.e2ee?.prepareSync(response as Parameters<MatrixE2ee["prepareSync"]>[0]);
    await storeSync(lilo, ctx, gate, response);
    await ctx.e2ee?.commitSync();
  };
  await client.start();
  logger.info("matrix syncing", { userId: gate.botUserId });
  return {
    name: "matrix",
    client,
    stop: async () => {
      stopped = true;
      client.stop();
      lilo.push.unregisterTransport("matrix");
      await queue.drain();
      await ctx.e2ee?.close();
    },
  };
}

/**
 * Lilo's encryption device for the client (crypto/start-e2ee.ts): what it
 * sends to encrypted rooms is encrypted from now on; an encrypted message
 * of an allowed user in an allowed room waits for its key, and one whose
 * key never came gets a note in its room (through the room's queue).
 */
async function startEncryption(
  lilo: Lilo,
  client: DurableSyncClient,
  storage: IStorageProvider,
  state: BotState,
  run: (roomId: string, job: () => Promise<void>) => void,
  logger: Logger,
): Promise<E2eeStart | undefined> {
  const { allowedUsers, maxMessageChars } = matrixConfig(lilo.config);
  const crypto = await startE2ee(client, {
    dataDir: lilo.config.dataDir,
    keys: lilo.deviceKeys,
    storage,
    logger,
    wanted: (roomId, sender) => !!allowedUsers[sender] && state.isAllowedRoom(roomId),
    members: (roomId) => client.getJoinedRoomMembers(roomId),
    now: () => lilo.clock.now().getTime(),
    gaveUp: (roomId) =>
      run(roomId, async () => void (await sendMarkdown(client, roomId, CRYPTO_TEXTS[lilo.config.persona.language].undecryptable, maxMessageChars))),
  });
  client.outgoing = crypto && ((roomId, type, content) => crypto.e2ee.outgoing(roomId, type, content));
  return crypto;
}

function fileStorage(dataDir: string): IStorageProvider {
  ensurePrivateDir(dataDir);
  return new SimpleFsStorageProvider(join(dataDir, "matrix-bot.json"));
}

/**
 * The SDK logs to the console by default; route it into Lilo's logger.
 * Its HTTP client logs every refused request as an error, including
 * expected ones (no m.direct account data yet); the caller handles those,
 * so they go to debug.
 */
function routeSdkLogs(logger: Logger): void {
  const text = (parts: unknown[]) => parts.map(describePart).join(" ");
  const problem = (module: string, ...parts: unknown[]) =>
    module === "MatrixHttpClient" ? logger.debug(`matrix-sdk ${module}: ${text(parts)}`) : logger.warn(`matrix-sdk ${module}: ${text(parts)}`);
  LogService.setLogger({
    info: (module: string, ...parts: unknown[]) => sdkInfo(logger, module, text(parts)),
    warn: problem,
    error: problem,
    debug: () => {},
    trace: () => {},
  });
  LogService.setLevel(LogLevel.INFO);
}

function describePart(part: unknown): string {
  if (typeof part === "string" || part instanceof Error) return describeError(part);
  try {
    return JSON.stringify(part) ?? String(part);
  } catch {
    // Circular objects (HTTP responses) cannot be serialised; their type is enough for a log line.
    return Object.prototype.toString.call(part);
  }
}
