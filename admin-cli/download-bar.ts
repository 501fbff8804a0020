import { Presets, SingleBar } from "cli-progress";
import type { LiloConfig, LiloPorts, Logger } from "../core/index.ts";
import { LocalModels, type DownloadStep } from "../core/internal.ts";

const MB = 1_000_000;

/**
 * A bar per file for Lilo's local model downloads, on `stream` when it is a
 * terminal (stderr: stdout stays free for the terminal chat and --json
 * output); undefined otherwise, and the core logs one line per tenth instead.
 */
export function downloadBar(stream: NodeJS.WriteStream = process.stderr): ((step: DownloadStep) => void) | undefined {
  if (!stream.isTTY) return undefined;
  const bars = new Map<string, SingleBar>();
  return ({ file, received, total, finished }) => {
    const bar = bars.get(file);
    if (finished) {
      bar?.stop();
      bars.delete(file);
    } else if (bar) bar.update(Math.floor(received / MB));
    else {
      const fresh = new SingleBar(
        { stream, format: `${file} [{bar}] {percentage}% {value}/{total} MB, eta {eta_formatted}`, hideCursor: true },
        Presets.shades_classic,
      );
      fresh.start(total ? Math.ceil(total / MB) : 0, Math.floor(received / MB));
      bars.set(file, fresh);
    }
  };
}

/** The `localModels` port that draws the download bar on a terminal; none otherwise (createLilo's own engine logs the download). */
export function localModelsWithBar(config: LiloConfig, logger: Logger, stream: NodeJS.WriteStream = process.stderr): Pick<LiloPorts, "localModels"> {
  const onDownload = downloadBar(stream);
  return onDownload ? { localModels: new LocalModels(config.local, config.modelCall.maxTokens, logger, { onDownload }) } : {};
}
