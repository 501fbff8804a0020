/**
 * The files a first answer needs: the embedding model (always) and Lilo's
 * own model (when the chat runs on it). The setup names the missing ones with
 * their size and folder before it writes anything, lets the user copy them
 * in by hand instead (no internet), and downloads Lilo's own model right
 * away otherwise, so the first chat message does not wait for a gigabyte.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { DEFAULT_EMBEDDING_MODELS, ensureModelFile, loggedProgress, type DownloadStep } from "../../core/internal.ts";
import { describeError, type Logger } from "../../core/index.ts";
import { downloadBar } from "../download-bar.ts";
import type { EnvLines, LocalModelOffer } from "./model-choices.ts";
import type { SetupTexts } from "./texts.ts";

/** Where the embedding model (`<embedding>/<model id>/`) and Lilo's own models (`<local>/<file>.gguf`) are read from. */
export interface ModelFolders {
  embedding: string;
  local: string;
}

/** The sizes of the default embedding models (quantised ONNX and tokenizer), as the configuration's table states them. */
const EMBEDDING_SIZES: Record<string, string> = {
  [DEFAULT_EMBEDDING_MODELS.de]: "≈ 120 MB",
  [DEFAULT_EMBEDDING_MODELS.en]: "≈ 25 MB",
};

/** What is missing for the configuration in `lines`: each file with its size and place. */
export interface MissingFiles {
  embedding?: { model: string; size: string; dir: string };
  own?: { offer: LocalModelOffer; dir: string; path: string };
}

/** The files the answers in `lines` need before the first answer and that are not in their folders yet. */
export function missingFiles(
  lines: EnvLines,
  env: Record<string, string | undefined>,
  folders: ModelFolders,
  catalogue: readonly LocalModelOffer[],
): MissingFiles {
  const missing: MissingFiles = {};
  const language = lines.LILO_LANGUAGE === "de" ? "de" : "en";
  const model = env.LILO_EMBEDDING_MODEL?.trim() || DEFAULT_EMBEDDING_MODELS[language];
  const dir = resolve(folders.embedding, model);
  // transformers.js reads `<dir>/<model id>/onnx/model_quantized.onnx` (the q8 weights) next to its config.
  if (!existsSync(join(dir, "onnx", "model_quantized.onnx"))) missing.embedding = { model, size: EMBEDDING_SIZES[model] ?? "?", dir };
  const own = ownOffer(lines.LILO_CHAT_MODEL, catalogue);
  if (own) {
    const ownDir = resolve(folders.local);
    const path = join(ownDir, own.entry.file);
    if (!existsSync(path)) missing.own = { offer: own, dir: ownDir, path };
  }
  return missing;
}

/** The catalogue model `local` / `local:<name>` names; undefined for any other model or an own .gguf file. */
export function ownOffer(chatModel: string | undefined, catalogue: readonly LocalModelOffer[]): LocalModelOffer | undefined {
  if (chatModel === "local") return catalogue[0];
  const name = chatModel?.startsWith("local:") ? chatModel.slice("local:".length).trim().toLowerCase() : undefined;
  return name === undefined ? undefined : catalogue.find((m) => m.name === name);
}

/** Says which switches go into `.env`, when there are any. */
export function offlineWritten(t: SetupTexts, lines: EnvLines): string[] {
  const vars = Object.keys(lines);
  return vars.length ? [t.offlineWritten(vars.map((k) => `${k}=true`).join(", "))] : [];
}

/** The lines saying what is missing, for the user to read before anything is written. */
export function missingLines(t: SetupTexts, missing: MissingFiles): string[] {
  if (!missing.embedding && !missing.own) return [];
  return [
    t.downloadsNeeded,
    ...(missing.embedding ? [t.embeddingFile(missing.embedding.model, missing.embedding.size, missing.embedding.dir)] : []),
    ...(missing.own ? [t.ownModelFile(missing.own.offer.name, missing.own.offer.size, missing.own.path)] : []),
  ];
}

/**
 * The offline way: the variables that keep Lilo from downloading (for
 * `.env`) and, for each missing file, what to copy where.
 */
export function offlineWay(t: SetupTexts, missing: MissingFiles): { lines: EnvLines; say: string[] } {
  const lines: EnvLines = {};
  const say: string[] = [];
  if (missing.embedding) {
    lines.LILO_EMBEDDING_OFFLINE = "true";
    say.push(t.copyEmbedding(missing.embedding.model, missing.embedding.dir));
  }
  if (missing.own) {
    lines.LILO_LOCAL_OFFLINE = "true";
    say.push(t.copyOwnModel(missing.own.offer.entry.file, missing.own.offer.entry.url, missing.own.dir));
  }
  return { lines, say };
}

/**
 * Downloads Lilo's own model into its folder through the core's resumable,
 * sha256-checked download: a bar on a terminal, a line per tenth otherwise.
 * A `.part` an interrupted run left is continued. Returns the problem in the
 * setup's words (with what to copy where), or undefined when the file is there.
 */
export async function fetchOwnModel(
  t: SetupTexts,
  own: NonNullable<MissingFiles["own"]>,
  env: Record<string, string | undefined>,
  say: (line: string) => void,
  progress: NodeJS.WriteStream = process.stderr,
): Promise<string | undefined> {
  say(t.downloading(own.offer.name, own.offer.size, own.dir));
  const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
  const lines: Logger = { ...quiet, info: (message) => say(`  ${message}`) };
  const onProgress: (step: DownloadStep) => void = downloadBar(progress) ?? loggedProgress(lines);
  const mirror = env.LILO_LOCAL_MODEL_MIRROR?.trim() || undefined;
  try {
    const path = await ensureModelFile({ kind: "catalogue", entry: own.offer.entry }, { dir: own.dir, offline: false, mirror }, quiet, onProgress);
    say(t.downloaded(path));
    return undefined;
  } catch (err) {
    return [t.downloadFailed(describeError(err)), t.copyOwnModel(own.offer.entry.file, own.offer.entry.url, own.dir), t.downloadLater].join("\n");
  }
}
