import { availableParallelism } from "node:os";
import type { ChatModel } from "../../ports/chat-model.ts";
import type { Logger } from "../../ports/logger.ts";
import { LocalEngine, type LocalEngineOptions } from "./local-engine.ts";
import { LocalChatModel } from "./local-model.ts";
import { ensureModelFile, parseLocalModel, type ModelFolder } from "./model-file.ts";
import type { DownloadListener } from "./download-progress.ts";

/** The `local` part of the configuration (LILO_LOCAL_*). */
export interface LocalConfig extends ModelFolder {
  gpu: LocalEngineOptions["gpu"];
  threads: number;
  contextTokens: number;
  idleMinutes: number;
  /** LILO_LOCAL_SEED: repeatable sampling; unset, every answer is drawn afresh. */
  seed?: number | undefined;
}

/** What a LocalModels may be given besides its configuration. */
export interface LocalModelsOptions {
  /** When the engine unloads an idle model (tests pass their own timer). */
  schedule?: LocalEngineOptions["schedule"];
  /** Told each step of a model download (the CLI and `npm start` draw a bar); without it the steps are logged. */
  onDownload?: DownloadListener;
}

/**
 * The `local` provider of one Lilo: every role that names a local model gets
 * a ChatModel on the same engine, so one model sits in memory however many
 * roles use it. Building it costs nothing; node-llama-cpp loads on the first
 * request. `close` unloads the model (Lilo's close calls it).
 */
export class LocalModels {
  private engine: LocalEngine | undefined;
  /** One download per file however many roles and calls wait for it; a failed one is forgotten so the next call tries again. */
  private readonly files = new Map<string, Promise<string>>();

  constructor(
    private readonly config: LocalConfig,
    private readonly maxTokens: number,
    private readonly logger: Logger,
    private readonly options: LocalModelsOptions = {},
  ) {}

  /** The ChatModel for `local:<name>`; a ConfigError right away for a name that is neither a catalogue model nor a .gguf path. */
  chatModel(name: string): ChatModel {
    const ref = parseLocalModel(name, this.config);
    const key = ref.kind === "file" ? ref.path : ref.entry.file;
    const file = () => {
      let f = this.files.get(key);
      if (!f) {
        f = ensureModelFile(ref, this.config, this.logger, this.options.onDownload).catch((err: unknown) => {
          this.files.delete(key);
          throw err;
        });
        this.files.set(key, f);
      }
      return f;
    };
    return new LocalChatModel({ model: name, file, engine: this.shared(), maxTokens: this.maxTokens, logger: this.logger });
  }

  /** The engine, for status and tests. */
  shared(): LocalEngine {
    this.engine ??= new LocalEngine({
      gpu: this.config.gpu,
      threads: this.config.threads || defaultThreads(),
      contextTokens: this.config.contextTokens,
      idleMs: this.config.idleMinutes * 60_000,
      ...(this.config.seed !== undefined ? { seed: this.config.seed } : {}),
      logger: this.logger,
      ...(this.options.schedule ? { schedule: this.options.schedule } : {}),
    });
    return this.engine;
  }

  async close(): Promise<void> {
    await this.engine?.close();
    this.engine = undefined;
  }
}

/**
 * All cores but one: llama.cpp's threads spin while they wait for each other,
 * so a generation that takes every core starves the rest of Lilo (the
 * embedder, the chat adapters) and collapses when anything else runs.
 */
function defaultThreads(): number {
  return Math.max(1, availableParallelism() - 1);
}
