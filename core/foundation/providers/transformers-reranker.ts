/**
 * A cross-encoder through transformers.js: the question and each candidate
 * are read together by a sequence-classification model whose logit is the
 * relevance. Works with the ONNX exports of the usual rerankers (see README
 * "Reranker"): one logit per pair, or several labels of which the last means
 * "relevant". Loaded on first use from `<localDir>/<model>`, downloaded from
 * Hugging Face into it first unless offline.
 */
import { resolve } from "node:path";
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from "@huggingface/transformers";
import { LiloError, describeError } from "../errors.ts";
import type { Reranker } from "../ports/reranker.ts";
import { loadInTurn } from "./transformers-env.ts";

/** Pairs per model call: bounds the padded batch tensor. */
const BATCH_SIZE = 16;

interface TransformersRerankerOptions {
  model: string;
  /** Where the model lives as `<localDir>/<model>/…` (config.json, tokenizer files, onnx/model_quantized.onnx). */
  localDir: string;
  offline: boolean;
  /** `q8` (default) reads onnx/model_quantized.onnx, `fp32` onnx/model.onnx. */
  dtype?: "q8" | "fp32";
}

interface Loaded {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
}

/** Relevance of (question, text) pairs from a local cross-encoder. */
export class TransformersReranker implements Reranker {
  readonly id: string;
  private readonly localDir: string;
  private loading: Promise<Loaded> | undefined;

  /** Does no I/O: the model is loaded on the first `score()`. */
  constructor(private readonly opts: TransformersRerankerOptions) {
    this.id = opts.model;
    this.localDir = resolve(opts.localDir);
  }

  /** One logit per text (the "relevant" label's when the head has several). */
  async score(query: string, texts: string[]): Promise<number[]> {
    if (!texts.length) return [];
    const { tokenizer, model } = await this.load();
    try {
      const out: number[] = [];
      for (let i = 0; i < texts.length; i += BATCH_SIZE) {
        const batch = texts.slice(i, i + BATCH_SIZE);
        const inputs = tokenizer(
          batch.map(() => query),
          { text_pair: batch, padding: true, truncation: true },
        );
        const { logits } = (await model(inputs)) as { logits: Tensor };
        const labels = logits.dims.at(-1) ?? 1;
        const data = logits.to("float32").data as Float32Array;
        for (let j = 0; j < batch.length; j++) out.push(data[j * labels + labels - 1]!);
      }
      return out;
    } catch (err) {
      throw new LiloError("reranker", `Reranking model "${this.id}" failed on ${texts.length} text(s): ${describeError(err)}`, { cause: err });
    }
  }

  private load(): Promise<Loaded> {
    // A failed load is forgotten so a later call can retry (network back, files placed).
    this.loading ??= loadInTurn(() => this.loadNow()).catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async loadNow(): Promise<Loaded> {
    try {
      // Imported here: onnxruntime's native binding is paid for only when a reranker is configured.
      const { env, AutoTokenizer, AutoModelForSequenceClassification } = await import("@huggingface/transformers");
      env.localModelPath = this.localDir;
      env.cacheDir = this.localDir;
      env.allowLocalModels = true;
      env.allowRemoteModels = !this.opts.offline;
      const options = { cache_dir: this.localDir, local_files_only: this.opts.offline };
      const tokenizer = await AutoTokenizer.from_pretrained(this.id, options);
      const model = await AutoModelForSequenceClassification.from_pretrained(this.id, { ...options, dtype: this.opts.dtype ?? "q8" });
      return { tokenizer, model };
    } catch (err) {
      const files = `config.json, tokenizer.json, tokenizer_config.json and onnx/model${this.opts.dtype === "fp32" ? "" : "_quantized"}.onnx`;
      throw new LiloError(
        "reranker",
        `Reranking model "${this.id}" could not be loaded from ${this.localDir}${this.opts.offline ? " (offline)" : " nor downloaded from Hugging Face"}: ` +
          `${describeError(err).replace(/\.+$/, "")}. Place its files (${files}) in ${this.localDir}/${this.id}, or unset LILO_RERANKER_MODEL.`,
        { cause: err },
      );
    }
  }
}
