import type { Llama, LlamaChat, LlamaContext, LlamaGrammar, LlamaModel } from "node-llama-cpp";
import type { Logger } from "../../ports/logger.ts";
import { ProviderError, describeError } from "../../errors.ts";
import { SerialQueue } from "./serial-queue.ts";
import type { GrammarSchema } from "./json-grammar-schema.ts";

/** How Lilo runs local models (LILO_LOCAL_*). */
export interface LocalEngineOptions {
  /** "auto" picks CUDA, Vulkan or Metal when their binaries are installed and a GPU is there, else the CPU. */
  gpu: "auto" | "off" | "cuda" | "vulkan" | "metal";
  /** CPU threads; 0 = as many as the machine has. */
  threads: number;
  /** Largest context in tokens; shrunk by the library when memory is short. */
  contextTokens: number;
  /** A model unused this long is unloaded (its memory returned); the next request loads it again. */
  idleMs: number;
  /** Sampling seed of the first request; each later one takes the next number, so a retry is not the same draw again. */
  seed?: number;
  logger: Logger;
  /** Runs `fn` after `ms` without keeping the process alive; tests pass their own. */
  schedule?: (ms: number, fn: () => void) => { cancel(): void };
}

/** The two conversations kept in the KV cache: the chat's and the background calls' (extraction, judge, diary, …). */
export type Lane = "chat" | "background";

/** A loaded model with its context, one LlamaChat per lane, and the grammars built for it. */
export interface LoadedModel {
  path: string;
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  chats: Record<Lane, LlamaChat>;
  /** A grammar per schema, built once per loaded model. */
  grammar(schema: GrammarSchema | "json"): Promise<LlamaGrammar>;
}

/**
 * One model in memory for the whole process, shared by every role that uses
 * it. Requests run one after another through a queue (a CPU has no spare
 * cores for a second generation, and one context holds the cache). Each lane
 * keeps its own sequence, so the chat's stable prefix (persona, rules, marker
 * instructions) stays evaluated in the KV cache between turns even when an
 * extraction ran in between: node-llama-cpp reuses the tokens a new prompt
 * shares with the sequence and evaluates only the rest. A request for another
 * file swaps the model; after `idleMs` without requests it is unloaded.
 */
export class LocalEngine {
  private readonly queue = new SerialQueue();
  private loaded: LoadedModel | undefined;
  private llama: Llama | undefined;
  private idleTimer: { cancel(): void } | undefined;
  private closed = false;
  private answered = 0;
  private started = 0;

  constructor(private readonly opts: LocalEngineOptions) {}

  /** Runs `fn` with the model of `path` loaded, after every request queued before it; `seed` is this request's, when one is configured. */
  run<T>(path: string, fn: (m: LoadedModel, seed: number | undefined) => Promise<T>, signal?: AbortSignal): Promise<T> {
    this.idleTimer?.cancel();
    this.idleTimer = undefined;
    return this.queue
      .push(async () => {
        if (this.closed) throw new ProviderError("The local model was shut down with Lilo.", { provider: "local", retryable: false });
        signal?.throwIfAborted();
        const seed = this.opts.seed === undefined ? undefined : this.opts.seed + this.started++;
        const result = await fn(await this.modelFor(path), seed);
        this.answered++;
        return result;
      })
      .finally(() => this.armIdle());
  }

  /** Whether a model is in memory now (for tests and `lilo` status). */
  get isLoaded(): boolean {
    return this.loaded !== undefined;
  }

  /** Requests answered since this engine was built (all models). */
  get served(): number {
    return this.answered;
  }

  /** Requests waiting or running. */
  get pending(): number {
    return this.queue.size;
  }

  /** Unloads the model once the queue is empty. */
  unload(): Promise<void> {
    return this.queue.push(() => this.dispose());
  }

  /** Unloads everything and refuses further requests. */
  async close(): Promise<void> {
    this.idleTimer?.cancel();
    await this.unload();
    this.closed = true;
    await this.llama?.dispose();
    this.llama = undefined;
  }

  private armIdle(): void {
    if (this.closed || this.queue.size > 0 || !this.loaded) return;
    const schedule = this.opts.schedule ?? unrefTimer;
    this.idleTimer = schedule(this.opts.idleMs, () => {
      this.idleTimer = undefined;
      if (this.queue.size > 0) return;
      this.opts.logger.info("local model unloaded after idle time", { file: this.loaded?.path, idleMinutes: this.opts.idleMs / 60_000 });
      this.unload().catch((err: unknown) => this.opts.logger.warn("unloading the local model failed", { error: describeError(err) }));
    });
  }

  private async modelFor(path: string): Promise<LoadedModel> {
    if (this.loaded?.path === path) return this.loaded;
    await this.dispose();
    try {
      this.loaded = await this.load(path);
      return this.loaded;
    } catch (err) {
      // A GPU named in LILO_LOCAL_GPU whose prebuilt binaries are not installed (package.json stubs them out on Linux).
      const hint =
        err instanceof Error && err.constructor.name === "NoBinaryFoundError" && (this.opts.gpu === "cuda" || this.opts.gpu === "vulkan")
          ? ` No llama.cpp binary for LILO_LOCAL_GPU=${this.opts.gpu}: install it with \`npm run local:gpu -- ${this.opts.gpu}\`, or set LILO_LOCAL_GPU=auto.`
          : "";
      throw new ProviderError(`The local model ${path} could not be loaded: ${describeError(err)}.${hint}`, {
        provider: "local",
        retryable: false,
        cause: err,
      });
    }
  }

  private async load(path: string): Promise<LoadedModel> {
    // Imported here: the native binding loads ~30 MB of code that a setup with a hosted model never needs.
    const lib = await import("node-llama-cpp");
    const { logger } = this.opts;
    this.llama ??= await lib.getLlama({
      gpu: this.opts.gpu === "off" ? false : this.opts.gpu,
      // Never compile llama.cpp at run time: use the prebuilt binaries npm installed, falling back from GPU to CPU.
      build: "never",
      logLevel: lib.LlamaLogLevel.warn,
      logger: (level, message) => {
        if (level === lib.LlamaLogLevel.error || level === lib.LlamaLogLevel.fatal) logger.warn("llama.cpp", { message: message.trim() });
      },
    });
    const started = Date.now();
    const model = await this.llama.loadModel({ modelPath: path });
    const max = Math.max(512, Math.min(this.opts.contextTokens, model.trainContextSize));
    const context = await model.createContext({
      contextSize: { min: Math.min(2048, max), max },
      sequences: 2,
      ...(this.opts.threads > 0 ? { threads: this.opts.threads } : {}),
    });
    const chat = (): LlamaChat => new lib.LlamaChat({ contextSequence: context.getSequence() });
    const chats = { chat: chat(), background: chat() };
    const llama = this.llama;
    const grammars = new Map<string, Promise<LlamaGrammar>>();
    logger.info("local model loaded", {
      file: path,
      gpu: llama.gpu || "cpu",
      contextTokens: context.contextSize,
      chatTemplate: chats.chat.chatWrapper.wrapperName,
      ms: Date.now() - started,
    });
    return {
      path,
      llama,
      model,
      context,
      chats,
      grammar: (schema) => {
        const key = schema === "json" ? "json" : JSON.stringify(schema);
        let g = grammars.get(key);
        if (!g) {
          g = schema === "json" ? llama.getGrammarFor("json") : llama.createGrammarForJsonSchema(schema as Parameters<Llama["createGrammarForJsonSchema"]>[0]);
          grammars.set(key, g);
        }
        return g;
      },
    };
  }

  private async dispose(): Promise<void> {
    const m = this.loaded;
    this.loaded = undefined;
    if (!m) return;
    for (const c of Object.values(m.chats)) c.dispose();
    await m.context.dispose();
    await m.model.dispose();
  }
}

/** A setTimeout that does not keep the process alive (a finished CLI command exits). */
function unrefTimer(ms: number, fn: () => void): { cancel(): void } {
  const t = setTimeout(fn, ms);
  t.unref();
  return { cancel: () => clearTimeout(t) };
}
