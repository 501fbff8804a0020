/**
 * Instruct models Lilo can download and run herself (`LILO_CHAT_MODEL=local:<name>`).
 * All speak German (their model cards list it), fit a home server, and are
 * pinned to one revision of one file with its sha256, so a download is
 * verified byte for byte. Sizes, hashes and URLs are from the Hugging Face
 * file pages of those revisions; speeds are published figures for models of
 * the class on similar hardware (sources in `sources`), not promises.
 */
export interface LocalModelEntry {
  /** What the user writes after `local:`. */
  name: string;
  /** Shown in the setup and `lilo` output. */
  title: string;
  /** File name under the models folder. */
  file: string;
  /** Download URL pinned to a revision (resolve/<commit>/<file>). */
  url: string;
  /** Hex sha256 of the whole file. */
  sha256: string;
  /** Download size in bytes (as published; the server's Content-Length is the exact figure). */
  sizeBytes: number;
  licence: string;
  /** Memory the model needs to answer with Lilo's default context, in GB (weights + KV cache + runtime). */
  ramGb: number;
  /** ISO codes of the languages the model card names. */
  languages: readonly string[];
  /** Expected generation speed in tokens per second on 4 CPU cores and on a small GPU (6–12 GB). */
  speed: { cpu4Cores: string; smallGpu: string };
  /** Where the figures come from. */
  sources: readonly string[];
}

const CPU_SOURCES = [
  "https://locobench.org/docs/speed (CPU-only llama.cpp: 1B Q4_K_M > 10 t/s, 4B Q4_K_M 4–6 t/s)",
  "CEUR-WS Vol-4164 paper 11, Malakhov 2026, 'Deploying LLMs on CPU-only Environments with llama.cpp' (Llama-3.2-1B ≈ 25 t/s, Qwen2.5-7B ≈ 8 t/s on a Xeon E5-2695 v2)",
];
const GPU_SOURCE = "https://specpicks.com/reviews/llm-quantization-12gb-gpu-rtx-3060-2026 (RTX 3060 12 GB: 7B–13B Q4_K_M at 18–22 t/s)";

/** The catalogue, smallest first. The first entry is the default of `local` without a name. */
export const LOCAL_MODELS: readonly LocalModelEntry[] = [
  {
    name: "qwen2.5-1.5b",
    title: "Qwen2.5 1.5B Instruct (Q4_K_M)",
    file: "Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
    url: "https://huggingface.co/bartowski/Qwen2.5-1.5B-Instruct-GGUF/resolve/85553858e3522ce5b531285b2202bdb40fab1624/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf",
    sha256: "50961d9b7d3b89e46be230528fc66d38bbdda8ac3748323dd34f129a714124fc",
    sizeBytes: 986_000_000,
    licence: "Apache-2.0",
    ramGb: 2,
    languages: ["de", "en", "fr", "es", "it", "pt", "ru", "zh", "ja", "ko", "vi", "th", "ar"],
    speed: { cpu4Cores: "≈ 10–20 t/s (1B class: 10–25 t/s)", smallGpu: "≈ 90 t/s (the 7B figure scaled by file size)" },
    sources: [
      "https://huggingface.co/bartowski/Qwen2.5-1.5B-Instruct-GGUF/blob/85553858e3522ce5b531285b2202bdb40fab1624/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf (size, sha256)",
      "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct (Apache-2.0; 29+ languages incl. German)",
      ...CPU_SOURCES,
    ],
  },
  {
    name: "llama3.2-3b",
    title: "Llama 3.2 3B Instruct (Q4_K_M)",
    file: "Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    url: "https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/resolve/c346bfc2029e79ba6d7edf026cf01fe44242db0d/Llama-3.2-3B-Instruct-Q4_K_M.gguf",
    sha256: "6c1a2b41161032677be168d354123594c0e6e67d2b9227c84f296ad037c728ff",
    sizeBytes: 2_020_000_000,
    licence: "Llama 3.2 Community License",
    ramGb: 4,
    languages: ["de", "en", "fr", "it", "pt", "hi", "es", "th"],
    speed: { cpu4Cores: "≈ 5–8 t/s (4B class: 4–6 t/s)", smallGpu: "≈ 45 t/s (the 7B figure scaled by file size)" },
    sources: [
      "https://huggingface.co/bartowski/Llama-3.2-3B-Instruct-GGUF/blob/c346bfc2029e79ba6d7edf026cf01fe44242db0d/Llama-3.2-3B-Instruct-Q4_K_M.gguf (size, sha256)",
      "https://huggingface.co/meta-llama/Llama-3.2-3B-Instruct (officially supported: English, German, French, Italian, Portuguese, Hindi, Spanish, Thai)",
      ...CPU_SOURCES,
    ],
  },
  {
    name: "qwen2.5-7b",
    title: "Qwen2.5 7B Instruct (Q4_K_M)",
    file: "Qwen2.5-7B-Instruct-Q4_K_M.gguf",
    url: "https://huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF/resolve/215ad673efa530c712db83ff5e39263c5fc979f8/Qwen2.5-7B-Instruct-Q4_K_M.gguf",
    sha256: "c43b4d4fd23c0ef261e55f5ae2217d44ecbdc40f44cfd476491462a05f4205f2",
    sizeBytes: 4_680_000_000,
    licence: "Apache-2.0",
    ramGb: 7,
    languages: ["de", "en", "fr", "es", "it", "pt", "ru", "zh", "ja", "ko", "vi", "th", "ar"],
    speed: { cpu4Cores: "≈ 3–8 t/s (7B: ≈ 8 t/s on an old 12-core Xeon)", smallGpu: "≈ 18–22 t/s (RTX 3060)" },
    sources: [
      "https://huggingface.co/bartowski/Qwen2.5-7B-Instruct-GGUF/blob/215ad673efa530c712db83ff5e39263c5fc979f8/Qwen2.5-7B-Instruct-Q4_K_M.gguf (size, sha256)",
      "https://huggingface.co/Qwen/Qwen2.5-7B-Instruct (Apache-2.0; 29+ languages incl. German)",
      ...CPU_SOURCES,
      GPU_SOURCE,
    ],
  },
];

/** The entry of a catalogue name (case-insensitive), if it is one. */
export function catalogueEntry(name: string): LocalModelEntry | undefined {
  const wanted = name.trim().toLowerCase();
  return LOCAL_MODELS.find((m) => m.name === wanted);
}

/** Why `local:<name>` names no model (neither a catalogue name nor a .gguf file), or undefined when it does. */
export function localModelProblem(name: string): string | undefined {
  if (catalogueEntry(name) || name.trim().toLowerCase().endsWith(".gguf")) return undefined;
  return `local:${name} is neither one of Lilo's models (${LOCAL_MODELS.map((m) => m.name).join(", ")}) nor a .gguf file (e.g. local:/srv/models/my-model.gguf)`;
}

/** The model `local` without a name runs: the smallest, so a first start downloads the least. */
export const DEFAULT_LOCAL_MODEL = LOCAL_MODELS[0]!.name;
