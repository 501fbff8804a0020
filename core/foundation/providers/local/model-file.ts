import { existsSync } from "node:fs";
import { basename, isAbsolute, join, resolve } from "node:path";
import { ConfigError, ProviderError } from "../../errors.ts";
import type { Logger } from "../../ports/logger.ts";
import { catalogueEntry, localModelProblem, type LocalModelEntry } from "./catalogue.ts";
import { downloadVerified } from "./download.ts";
import { loggedProgress, type DownloadListener } from "./download-progress.ts";

/** Where local models live and whether Lilo may fetch them. */
export interface ModelFolder {
  /** LILO_LOCAL_MODEL_DIR (default $LILO_DATA_DIR/models, shared with the embedding model). */
  dir: string;
  /** LILO_LOCAL_OFFLINE: never download; the file must be in `dir`. */
  offline: boolean;
  /** LILO_LOCAL_MODEL_MIRROR: a Hugging Face mirror's base URL that replaces https://huggingface.co in catalogue URLs. */
  mirror?: string | undefined;
}

/** What `local:<name>` names: a catalogue model, or a GGUF file of the user's own. */
type LocalModelRef = { kind: "catalogue"; entry: LocalModelEntry } | { kind: "file"; path: string };

/**
 * Reads the part after `local:`: a catalogue name ("qwen2.5-1.5b") or a
 * path ending in .gguf (absolute, or relative to the models folder). Anything
 * else is a ConfigError at start-up, naming the choices.
 */
export function parseLocalModel(name: string, folder: ModelFolder): LocalModelRef {
  const problem = localModelProblem(name);
  if (problem) throw new ConfigError(`${problem}.`);
  const entry = catalogueEntry(name);
  if (entry) return { kind: "catalogue", entry };
  return { kind: "file", path: isAbsolute(name) ? name : resolve(folder.dir, name) };
}

/**
 * The file to load: an own .gguf as given (it must exist), a catalogue model
 * from the folder — downloaded there first (progress shown, resumable,
 * sha256-verified) unless offline, which names the file and URL to copy in.
 * Each step of a download goes to `onProgress`, or to the log without one.
 */
export async function ensureModelFile(ref: LocalModelRef, folder: ModelFolder, logger: Logger, onProgress?: DownloadListener): Promise<string> {
  if (ref.kind === "file") {
    if (!existsSync(ref.path)) {
      throw new ProviderError(`The local model file ${ref.path} does not exist (LILO_CHAT_MODEL=local:<file.gguf> needs a GGUF file there).`, {
        provider: "local",
        retryable: false,
      });
    }
    return ref.path;
  }
  const { entry } = ref;
  const dest = join(resolve(folder.dir), entry.file);
  if (existsSync(dest)) return dest;
  if (folder.offline) {
    throw new ProviderError(
      `The local model ${entry.name} is not in ${resolve(folder.dir)} and downloads are switched off (LILO_LOCAL_OFFLINE=true). ` +
        `Copy ${entry.file} (${entry.url}, sha256 ${entry.sha256}) into that folder, or from a machine where Lilo downloaded it once.`,
      { provider: "local", retryable: false },
    );
  }
  const size = `${(entry.sizeBytes / 1e9).toFixed(1)} GB`;
  logger.info(`downloading Lilo's local model ${entry.title} (${size}) into ${resolve(folder.dir)}; only this once`, {
    url: downloadUrl(entry, folder.mirror),
  });
  const tell = onProgress ?? loggedProgress(logger);
  const file = basename(entry.file);
  let last: { received: number; total: number | undefined } = { received: 0, total: undefined };
  try {
    await downloadVerified({
      url: downloadUrl(entry, folder.mirror),
      dest,
      sha256: entry.sha256,
      onProgress: (received, total) => {
        last = { received, total };
        tell({ file, received, total, finished: false });
      },
    });
  } finally {
    tell({ file, ...last, finished: true });
  }
  logger.info("local model downloaded and verified", { file: dest });
  return dest;
}

/** The catalogue URL, on the mirror when one is set (same path, another host). */
function downloadUrl(entry: LocalModelEntry, mirror: string | undefined): string {
  return mirror ? entry.url.replace(/^https:\/\/huggingface\.co/, mirror.replace(/\/+$/, "")) : entry.url;
}
