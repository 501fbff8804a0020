import { resolve } from "node:path";
import type { FeatureExtractionPipeline } from "@huggingface/transformers";
import { EmbedderError, EmbeddingModelMissingError, describeError } from "../errors.ts";
import type { Embedder } from "../ports/embedder.ts";
import { loadInTurn } from "./transformers-env.ts";

/** Small English sentence model (384 dims). `Xenova/paraphrase-multilingual-MiniLM-L12-v2` is the multilingual switch. */
export const DEFAULT_EMBEDDING_MODEL = "Xenova/all-MiniLM-L6-v2";

/** ONNX file suffix per weight type, as the Xenova/onnx-community repositories name them. */
const ONNX_SUFFIX = { fp32: "", fp16: "_fp16", q8: "_quantized", int8: "_int8", uint8: "_uint8", q4: "_q4", q4f16: "_q4f16", bnb4: "_bnb4" } as const;

/** Which ONNX weights to load: `q8` is `onnx/model_quantized.onnx`, `fp32` is `onnx/model.onnx`. */
type EmbeddingDtype = keyof typeof ONNX_SUFFIX;

interface TransformersEmbedderOptions {
  /** Hugging Face model id; defaults to {@link DEFAULT_EMBEDDING_MODEL}. */
  model?: string;
  /** Where the model lives as `<localDir>/<model>/…`, and where a first download is stored. */
  localDir: string;
  /** Never download: load only from localDir. */
  offline: boolean;
  /**
   * Defaults to `q8`: a quarter of fp32's download and memory for nearly the
   * same vectors, and the file transformers.js v2 always used.
   */
  dtype?: EmbeddingDtype;
}

/** Texts per model call; bounds the padded batch tensor when a whole history is re-embedded. */
const BATCH_SIZE = 32;

interface Loaded {
  extract: FeatureExtractionPipeline;
  dim: number;
}

/**
 * Sentence embeddings from a local ONNX model via transformers.js: mean
 * pooling over tokens, then L2 normalisation. The model is fetched from
 * Hugging Face into localDir on first use (unless offline) and read from
 * there afterwards, so a server needs the internet only once.
 */
export class TransformersEmbedder implements Embedder {
  readonly id: string;
  private readonly localDir: string;
  private readonly offline: boolean;
  private readonly dtype: EmbeddingDtype;
  private loading: Promise<Loaded> | undefined;

  /** Does no I/O: the model is loaded on the first `dimension()` or `embed()`. */
  constructor(opts: TransformersEmbedderOptions) {
    this.id = opts.model ?? DEFAULT_EMBEDDING_MODEL;
    // Absolute, so error messages say exactly where the files were expected.
    this.localDir = resolve(opts.localDir);
    this.offline = opts.offline;
    this.dtype = opts.dtype ?? "q8";
  }

  /** The vector length the model actually produces (loads the model). */
  async dimension(): Promise<number> {
    return (await this.load()).dim;
  }

  /** Unit-length vectors, one per text, in order. */
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const { extract } = await this.load();
    try {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += BATCH_SIZE) {
        vectors.push(...(await run(extract, texts.slice(i, i + BATCH_SIZE))));
      }
      return vectors;
    } catch (err) {
      throw new EmbedderError(`Embedding model "${this.id}" failed on ${texts.length} text(s): ${describeError(err)}`, { cause: err });
    }
  }

  private load(): Promise<Loaded> {
    // Keep the promise rather than the result so concurrent first calls share
    // one load; forget a failed one so a later call can retry (network back).
    this.loading ??= this.loadNow().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private loadNow(): Promise<Loaded> {
    return loadInTurn(async () => {
      try {
        // Imported here, not at the top: it pulls in onnxruntime's native
        // binding, which users of another embedder should not pay for.
        const { env, pipeline } = await import("@huggingface/transformers");
        // Both paths point at localDir: the file cache stores a download as
        // <cacheDir>/<model>/<file>, exactly where the local lookup lands next start.
        env.localModelPath = this.localDir;
        env.cacheDir = this.localDir;
        env.allowLocalModels = true;
        env.allowRemoteModels = !this.offline;
        const extract = await pipeline("feature-extraction", this.id, {
          dtype: this.dtype,
          cache_dir: this.localDir,
          local_files_only: this.offline,
        });
        // Ask the graph, not config.json: hidden_size can differ from the output
        // (projection heads), and a probe also proves the model really runs.
        const [probe] = await run(extract, ["dimension probe"]);
        if (!probe?.length) throw new Error("the model returned no vector for a probe text");
        return { extract, dim: probe.length };
      } catch (err) {
        throw new EmbeddingModelMissingError(this.loadFailureMessage(err), this.shortReason(err), `${this.localDir}/${this.id}`, { cause: err });
      }
    });
  }

  /** Why the model is missing, in a few words for a log line and `lilo status`. */
  private shortReason(err: unknown): string {
    return this.offline
      ? "its files are not in the folder and downloads are switched off (LILO_EMBEDDING_OFFLINE=true)"
      : `its files are not in the folder and the download failed: ${describeError(err).replace(/\.+$/, "")}`;
  }

  private loadFailureMessage(err: unknown): string {
    const where = `${this.localDir}/${this.id}`;
    const files = `config.json, tokenizer.json, tokenizer_config.json and onnx/model${ONNX_SUFFIX[this.dtype]}.onnx`;
    const what = this.offline
      ? `Embedding model "${this.id}" could not be loaded from ${this.localDir} (offline: downloads are switched off)`
      : `Embedding model "${this.id}" could not be loaded from ${this.localDir} nor downloaded from Hugging Face`;
    return (
      `${what}: ${describeError(err).replace(/\.+$/, "")}. To run without internet, place the model's files (${files}) in ${where}, ` +
      `e.g. copied from https://huggingface.co/${this.id} or from a machine where Lilo downloaded it once.`
    );
  }
}

/** One model call: mean-pooled, normalised rows of the output tensor. */
async function run(extract: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
  const output = await extract(texts, { pooling: "mean", normalize: true });
  const dim = output.dims.at(-1) ?? 0;
  // fp16 models return half floats; the port promises Float32Array.
  const data = output.to("float32").data as Float32Array;
  return texts.map((_, i) => data.slice(i * dim, (i + 1) * dim));
}
