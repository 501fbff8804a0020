import type { Logger } from "../../ports/logger.ts";

/**
 * How far one model download has got: `received` bytes of `total` (undefined
 * when the server does not say). The last step of a download has `finished`
 * set, whether the download worked or not, so a bar drawn from the steps can
 * be taken down.
 */
export interface DownloadStep {
  file: string;
  received: number;
  total: number | undefined;
  finished: boolean;
}

/** Told each step of a model download; the outer layers draw a progress bar with it. */
export type DownloadListener = (step: DownloadStep) => void;

const MB = 1_000_000;

/**
 * What the core does without a listener (a service, a log file, a program
 * that embeds Lilo): one info line at the start and at every further tenth
 * of the file.
 */
export function loggedProgress(logger: Logger): DownloadListener {
  let lastTenth = -1;
  return ({ file, received, total, finished }) => {
    if (finished) return;
    const tenth = total ? Math.floor((received / total) * 10) : 0;
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    logger.info(`${file}: ${Math.floor(received / MB)} of ${total ? Math.ceil(total / MB) : "?"} MB`, { percent: tenth * 10 });
  };
}
