import type { Logger } from "../../ports/logger.ts";
import type { DownloadProgress } from "./download.ts";

/** A progress display for one download; `done` ends it. */
export interface ProgressDisplay {
  update: DownloadProgress;
  done(): void;
}

const MB = 1_000_000;

/**
 * The bar a first start shows while a model downloads: cli-progress on
 * stderr when it is a terminal (stdout stays free for the terminal chat and
 * --json output); otherwise — a service, a log file — one log line per tenth.
 */
export async function downloadProgress(label: string, logger: Logger, stream: NodeJS.WriteStream = process.stderr): Promise<ProgressDisplay> {
  if (stream.isTTY) {
    const { SingleBar, Presets } = await import("cli-progress");
    const bar = new SingleBar(
      { stream, format: `${label} [{bar}] {percentage}% {value}/{total} MB, eta {eta_formatted}`, hideCursor: true },
      Presets.shades_classic,
    );
    let started = false;
    return {
      update: (done, total) => {
        const mb = Math.floor(done / MB);
        if (!started) {
          bar.start(total ? Math.ceil(total / MB) : 0, mb);
          started = true;
        } else bar.update(mb);
      },
      done: () => {
        if (started) bar.stop();
      },
    };
  }
  return loggedProgress(label, logger);
}

/** One info line at the start and at every further tenth of the file. */
export function loggedProgress(label: string, logger: Logger): ProgressDisplay {
  let lastTenth = -1;
  return {
    update: (done, total) => {
      const tenth = total ? Math.floor((done / total) * 10) : 0;
      if (tenth === lastTenth) return;
      lastTenth = tenth;
      logger.info(`${label}: ${Math.floor(done / MB)} of ${total ? Math.ceil(total / MB) : "?"} MB`, { percent: tenth * 10 });
    },
    done: () => {},
  };
}
