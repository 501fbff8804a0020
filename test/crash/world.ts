import Database from "better-sqlite3-multiple-ciphers";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeTelegram, type FakeTelegram } from "../fakes/fake-telegram.ts";
import { startFakeMatrix, type FakeMatrix } from "../fakes/fake-matrix.ts";
import { CryptoTestClient } from "../fakes/matrix-crypto-client.ts";
import { isExtraction, NO_EXTRACTION } from "../helpers/test-lilo.ts";
import { entryScript } from "../helpers/entry.ts";

/** Telegram user 111 is Lilo's "chris"; Matrix user @anna:fake is "anna", in ROOM. */
export const TG_CHAT = 111;
export const ROOM = "!crash:fake";
export const ANNA = "@anna:fake";
/** Every test message carries one token like "x042"; the fake model answers "Antwort x042". */
const TOKEN = /x\d{3}/g;

/** A spawned process and what it printed. */
export interface Proc {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Fake Telegram, Matrix and Anthropic servers and a data dir, and the real
 * bot process (test/crash/bot-entry.ts) started, killed and restarted
 * against them. The model can be told to hold the answer to a token (a slow
 * model call) or the extraction of a token, until `release`.
 */
export class CrashWorld {
  readonly dir = mkdtempSync(join(tmpdir(), "lilo-crash-"));
  private readonly holds = new Map<string, Promise<void>>();
  private readonly releases = new Map<string, () => void>();
  /** More variables for the bot and the CLI (e.g. a transcription endpoint), set before `startBot`. */
  extraEnv: Record<string, string> = {};
  /** Anna's own crypto device once `encryptRoom` made ROOM an encrypted room. */
  private anna: CryptoTestClient | undefined;
  /** Event id → body of the bot's encrypted messages, as Anna's client decrypted them (by `pump`). */
  private readonly decrypted = new Map<string, string>();
  private pumpTimer: NodeJS.Timeout | undefined;
  private pumping = false;

  private constructor(
    readonly tg: FakeTelegram,
    readonly hs: FakeMatrix,
    readonly llm: FakeAnthropic,
  ) {
    llm.replyAlways(async (body) => {
      const last = String(body.messages.at(-1)?.content ?? "");
      const token = (last.match(TOKEN) ?? []).at(-1);
      if (isExtraction(body.system)) {
        if (!token || !last.includes("Tee")) return NO_EXTRACTION;
        await this.holds.get(`extract:${token}`);
        return JSON.stringify({ facts: [], content: [`Christian trinkt gern Tee (${token})`], profile: [], important: [] });
      }
      if (token) await this.holds.get(token);
      return token ? `Antwort ${token}` : "Hallo";
    });
  }

  static async create(): Promise<CrashWorld> {
    return new CrashWorld(await startFakeTelegram({ maxHoldMs: 200 }), await startFakeMatrix(), await startFakeAnthropic());
  }

  /**
   * Makes ROOM an end-to-end encrypted room with Anna on her own crypto
   * device: `mxText` then sends encrypted, and what the bot sends there is
   * decrypted in the background for `deliveredAnswers` and `matrixTexts`.
   */
  async encryptRoom(): Promise<void> {
    this.anna = await CryptoTestClient.create(this.hs, ANNA);
    this.hs.encryptRoom(ROOM, ANNA);
    this.pumpTimer = setInterval(() => void this.pump(), 20);
  }

  /** Anna's text to ROOM: encrypted when the room is. */
  async mxText(text: string): Promise<void> {
    if (this.anna) await this.anna.sendText(ROOM, text);
    else this.hs.sendText(ROOM, ANNA, text);
  }

  /** The bodies of the bot's messages in Matrix, in order (encrypted ones once Anna's client has read them). */
  matrixTexts(): string[] {
    return this.hs.sent.flatMap((e) => {
      if (e.type === "m.room.message") return [String(e.content.body)];
      const body = e.type === "m.room.encrypted" ? this.decrypted.get(e.eventId) : undefined;
      return body === undefined ? [] : [body];
    });
  }

  /** Decrypts the bot's new encrypted messages with Anna's device; one run at a time, a failure is tried again next tick. */
  private async pump(): Promise<void> {
    if (this.pumping || !this.anna) return;
    this.pumping = true;
    try {
      for (const e of this.hs.sent) {
        if (e.type !== "m.room.encrypted" || this.decrypted.has(e.eventId)) continue;
        const read = await this.anna.read(e);
        this.decrypted.set(e.eventId, read.type === "m.room.message" ? String(read.content.body) : `(${read.type})`);
      }
    } catch {
      // The room key may still be on its way (a to-device message): the next tick tries again.
    } finally {
      this.pumping = false;
    }
  }

  /** The environment of the bot and the CLI: everything small and fast, no scheduled jobs. */
  env(): Record<string, string> {
    return {
      PATH: process.env.PATH ?? "",
      HOME: this.dir,
      LILO_HOME: this.dir,
      LILO_DATA_DIR: this.dir,
      LILO_LOG_LEVEL: "info",
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: this.llm.baseURL,
      LILO_CHAT_MODEL: "anthropic:claude-test",
      LILO_MODEL_MAX_RETRIES: "0",
      LILO_USER_NAMES: "chris=Christian,anna=Anna",
      TELEGRAM_BOT_TOKEN: this.tg.token,
      TELEGRAM_API_ROOT: this.tg.url,
      TELEGRAM_ALLOWED_USERS: `${TG_CHAT}=chris`,
      MATRIX_HOMESERVER_URL: this.hs.url,
      MATRIX_ACCESS_TOKEN: "fake-token",
      MATRIX_ALLOWED_USERS: `${ANNA}=anna`,
      LILO_DIARY_ENABLED: "false",
      LILO_REFLECTION_ENABLED: "false",
      LILO_TERMINAL_USER: "chris",
      ...this.extraEnv,
    };
  }

  /** Holds the model's answer (or, with "extract:", the extraction) for a token until released. */
  hold(key: string): void {
    this.holds.set(key, new Promise<void>((resolve) => this.releases.set(key, resolve)));
  }

  release(): void {
    for (const r of this.releases.values()) r();
    this.holds.clear();
    this.releases.clear();
  }

  /** Starts the bot and resolves when both adapters run (`ready`: the line of the last adapter started, when Matrix is left out). */
  async startBot(ready = /matrix adapter running/): Promise<Proc> {
    const proc = this.spawn([entryScript("test/crash/bot-entry.ts")]);
    // Generous: on a loaded machine the start (tsx, the database, the Matrix device's WebAssembly crypto) takes long.
    await until(
      () => ready.test(proc.output()) || proc.child.exitCode !== null,
      45_000,
      () => proc.output(),
    );
    if (proc.child.exitCode !== null) throw new Error(`the bot exited at start:\n${proc.output()}`);
    return proc;
  }

  /** Runs `lilo <args>` as its own process (the real CLI with the offline embedder); `env` adds to or replaces variables (another data folder). */
  cli(args: string[], env: Record<string, string> = {}): Proc {
    return this.spawn([entryScript("test/crash/cli-entry.ts"), ...args], env);
  }

  async kill(proc: Proc): Promise<void> {
    proc.child.kill("SIGKILL");
    await proc.exited;
  }

  async stop(proc: Proc): Promise<number | null> {
    proc.child.kill("SIGTERM");
    return proc.exited;
  }

  private spawn(args: string[], env: Record<string, string> = {}): Proc {
    const child = spawn(process.execPath, args, { cwd: process.cwd(), env: { ...this.env(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout!.on("data", (c) => (out += String(c)));
    child.stderr!.on("data", (c) => (out += String(c)));
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    return { child, output: () => out, exited };
  }

  /** A read-only look into the bot's database. */
  query<T>(sql: string, ...args: unknown[]): T[] {
    const db = new Database(join(this.dir, "lilo.db"), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(sql).all(...args) as T[];
    } finally {
      db.close();
    }
  }

  /** Stored user messages with a token, and for each the number of stored answers. */
  storedTokens(): Map<string, number> {
    const stored = this.query<{ text: string; answers: number }>(
      `SELECT u.text, (SELECT count(*) FROM messages a WHERE a.reply_to = u.id AND a.role = 'assistant') AS answers FROM messages u WHERE u.role = 'user'`,
    );
    return new Map(stored.flatMap((r) => (r.text.match(TOKEN) ?? []).map((t) => [t, r.answers] as [string, number])));
  }

  /** How often each token was answered on either platform, as the users saw it. */
  deliveredAnswers(): Map<string, number> {
    const texts = [...this.tg.calls("sendMessage", TG_CHAT).map((c) => String(c.params.text)), ...this.matrixTexts()];
    const counts = new Map<string, number>();
    for (const t of texts) for (const token of t.match(TOKEN) ?? []) counts.set(token, (counts.get(token) ?? 0) + 1);
    return counts;
  }

  /** Has every token been answered at least once? */
  answered(tokens: string[]): boolean {
    const got = this.deliveredAnswers();
    return tokens.every((t) => (got.get(t) ?? 0) > 0);
  }

  /** Waits until Telegram dropped every queued update and Matrix saved a sync token past every event. */
  async waitConfirmed(matrixPosition: number): Promise<void> {
    await until(
      () => this.tg.confirmedUpdateId >= this.tg.lastUpdateId && this.hs.lastSince >= matrixPosition,
      10_000,
      () => `tg ${this.tg.confirmedUpdateId}/${this.tg.lastUpdateId}, matrix ${this.hs.lastSince}/${matrixPosition}`,
    );
  }

  async close(): Promise<void> {
    clearInterval(this.pumpTimer);
    this.anna?.close();
    this.release();
    await this.tg.close();
    await this.hs.close();
    await this.llm.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Polls `cond` every 20 ms; throws with `describe()` after `timeoutMs`. */
export async function until(cond: () => boolean, timeoutMs: number, describe: () => string = () => ""): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms: ${describe()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Message tokens "x<from>" … "x<from + n - 1>". */
export function tokens(from: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => `x${String(from + i).padStart(3, "0")}`);
}
