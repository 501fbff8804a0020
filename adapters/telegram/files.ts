import type { Api } from "grammy";
import { LiloError } from "../../core/index.ts";

const DEFAULT_API_ROOT = "https://api.telegram.org";
const DOWNLOAD_TIMEOUT_MS = 60_000;

/** Downloads a file a user sent, by its file id, up to `maxBytes`. */
export type TelegramFiles = (fileId: string, maxBytes: number) => Promise<Uint8Array>;

/**
 * File downloads as the Bot API serves them: getFile for the path, then
 * `<apiRoot>/file/bot<token>/<path>`. That URL holds the bot token, so it
 * never goes into an error message or a log line.
 */
export function telegramFiles(api: Api, token: string, apiRoot = DEFAULT_API_ROOT): TelegramFiles {
  return async (fileId, maxBytes) => {
    const file = await api.getFile(fileId);
    if (file.file_size !== undefined && file.file_size > maxBytes) throw tooLarge(file.file_size, maxBytes);
    if (!file.file_path) throw new LiloError("media-download", "Telegram gave no path for the file");
    let res: Response;
    try {
      res = await fetch(`${apiRoot}/file/bot${token}/${file.file_path}`, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
    } catch (err) {
      throw new LiloError("media-download", "the file download from Telegram failed", { cause: err instanceof Error ? err.name : String(err) });
    }
    if (!res.ok) throw new LiloError("media-download", `the file download from Telegram failed with HTTP ${res.status}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > maxBytes) throw tooLarge(bytes.length, maxBytes);
    return bytes;
  };
}

function tooLarge(size: number, max: number): LiloError {
  return new LiloError("media-too-large", `the file has ${size} bytes, more than the ${max} allowed`);
}
