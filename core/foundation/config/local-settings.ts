import { z } from "zod";
import { bool, int, opt, positive, setting as s, url } from "./rules.ts";

/** Lilo's own model (the `local` provider): where models live, downloads, threads, context and unloading; a section of the table in schema.ts. */
export const localSettings = z.object({
  dir: s(opt(), {
    env: "LILO_LOCAL_MODEL_DIR",
    doc: "where local models are downloaded to and read from; default $LILO_DATA_DIR/models",
    group: "local-model",
    example: "data/models",
  }),
  offline: s(bool(false), {
    env: "LILO_LOCAL_OFFLINE",
    doc: "true: never download; the .gguf file must be in the directory",
    group: "local-model",
  }),
  mirror: s(url(), {
    env: "LILO_LOCAL_MODEL_MIRROR",
    doc: "a Hugging Face mirror that replaces https://huggingface.co in the catalogue's download URLs",
    group: "local-model",
    example: "https://hf-mirror.com",
  }),
  gpu: s(z.enum(["auto", "off", "cuda", "vulkan", "metal"]).default("auto"), {
    env: "LILO_LOCAL_GPU",
    doc: "auto (a GPU when its binaries are installed, see README), off (CPU only), cuda, vulkan or metal",
    group: "local-model",
  }),
  threads: s(int(0), { env: "LILO_LOCAL_THREADS", doc: "CPU threads; 0 = all cores but one (at least 1)", group: "local-model" }),
  contextTokens: s(z.coerce.number().int().min(512).optional(), {
    env: "LILO_LOCAL_CONTEXT_TOKENS",
    doc: "largest context; default LILO_REQUEST_BUDGET_TOKENS + LILO_MODEL_MAX_TOKENS (shrunk when memory is short)",
    group: "local-model",
  }),
  idleMinutes: s(positive(15), {
    env: "LILO_LOCAL_IDLE_MINUTES",
    doc: "the model leaves memory after this many minutes without a request; the next one loads it again",
    group: "local-model",
  }),
  seed: s(z.coerce.number().int().min(0).optional(), {
    env: "LILO_LOCAL_SEED",
    doc: "a number makes her own model's answers repeatable: the n-th request since start samples with seed + n; unset, every answer is drawn afresh",
    group: "local-model",
    example: "42",
  }),
});
