import type { ModelRole } from "../foundation/config/config.ts";
import type { Clock } from "../foundation/ports/clock.ts";
import type { Embedder } from "../foundation/ports/embedder.ts";
import type { VectorIndex } from "../foundation/ports/vector-index.ts";
import type { ChatModel } from "../foundation/ports/chat-model.ts";
import type { Logger } from "../foundation/ports/logger.ts";
import type { Metrics } from "../foundation/ports/metrics.ts";
import type { Db } from "../foundation/store/db.ts";
import type { ModelFactory, ModelLister } from "../foundation/models/registry.ts";
import type { Transcriber } from "../foundation/ports/transcriber.ts";
import type { Speaker } from "../foundation/ports/speaker.ts";
import type { OpusConverter } from "../foundation/providers/ffmpeg-opus.ts";
import type { Reranker } from "../foundation/ports/reranker.ts";
import type { Lexicon } from "../foundation/ports/lexicon.ts";
import type { WebSearch } from "../foundation/ports/web-search.ts";
import type { LocalModels } from "../foundation/providers/local/local-models.ts";
import type { TurnMiddleware } from "../conversation/turn/types.ts";
import type { MarkerRegistry } from "../conversation/markers/marker-registry.ts";
import type { HybridTuning } from "../memory/memory.ts";
import type { ChatSearchTuning } from "../memory/recall/search.ts";
import type { ChatFusionTuning } from "../memory/recall/sheet-recall.ts";
import type { ConceptStep } from "../memory/recall/concept-matches.ts";

/** Implementations that replace the configured ones; every port can be passed in. */
export interface LiloPorts {
  clock?: Clock;
  embedder?: Embedder;
  vectorIndex?: VectorIndex;
  /** The chat model; other roles fall back to it unless configured or given in `models`. */
  chatModel?: ChatModel;
  models?: Partial<Record<ModelRole, ChatModel>>;
  /** Builds models from "provider:model" specs (run-time switches); default: the real providers. */
  modelFactory?: ModelFactory;
  /** Which models a provider offers (`GET /models`); default: asked from the real providers unless `modelFactory` replaces them. */
  modelLister?: ModelLister;
  logger?: Logger;
  /** Where turn durations, model calls and pushes are counted (the app's `/metrics`); default: nowhere. */
  metrics?: Metrics;
  /** An open database (otherwise `config.dbPath` is opened). */
  db?: Db;
  /**
   * SQLite's WAL checkpoints on a worker thread instead of inside a commit on the event loop (the running bot;
   * short runs keep SQLite's default). Ended by `close`.
   */
  backgroundCheckpoints?: boolean;
  /**
   * The vector index's background work (saved graphs loaded, residual copies filled) waits for `lilo.started()`:
   * the bot's start, until its chats are connected, does not share the CPU with it. Searches meanwhile scan exactly.
   */
  holdIndexUpkeep?: boolean;
  /** Extra turn middleware, run in order after the built-in checks, before the model call. */
  steps?: TurnMiddleware[];
  /** The markers understood everywhere (chat, tools, greeting, diary, reflection; default: all of Lilo's; `MARKERS.with(...)` adds one). */
  markers?: MarkerRegistry;
  /** Ranking knobs of the hybrid and chat-log searches (defaults tuned by `npm run bench:recall`). */
  tuning?: {
    hybrid?: Partial<HybridTuning>;
    chat?: Partial<ChatSearchTuning>;
    chatFusion?: Partial<ChatFusionTuning>;
    concepts?: Partial<Omit<ConceptStep, "lexicon">>;
  };
  /** Web search provider (otherwise the configured SearXNG or Brave). */
  webSearch?: WebSearch;
  /** Speech to text for voice notes (otherwise the configured LILO_TRANSCRIBE_BASE_URL endpoint, if any). */
  transcriber?: Transcriber;
  /** Text to speech for voice replies (otherwise the configured LILO_SPEECH_BASE_URL endpoint, if any). */
  speaker?: Speaker;
  /** Converts audio that is not OGG/Opus (otherwise the ffmpeg program, LILO_FFMPEG). */
  opusConverter?: OpusConverter;
  /** The engine of `local:` models (otherwise one built from LILO_LOCAL_*); closed with Lilo. */
  localModels?: LocalModels;
  /** A cross-encoder for the sheet's chat-log candidates (otherwise LILO_RERANKER_MODEL, if set; off by default). */
  reranker?: Reranker;
  /** The concept step's lexicon (otherwise LILO_CONCEPT_LEXICON: the bundled WordNet unless off). */
  lexicon?: Lexicon;
}
