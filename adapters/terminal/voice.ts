import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeError, type Lilo } from "../../core/index.ts";
import { ensurePrivateDir, makePrivate } from "../../core/internal.ts";

/**
 * The voice note beside an answer in the terminal, which cannot play it:
 * the OGG/Opus file in the data folder (voice/, private to the owner) and
 * its path printed, for any player. Nothing here throws: the text stands.
 */
export async function speakToFile(lilo: Lilo, userId: string, answer: string, say: (text: string) => void): Promise<void> {
  const reply = await lilo.voice.reply(userId, answer);
  if (reply.kind === "text-only") {
    if (reply.note) say(reply.note);
    return;
  }
  try {
    const dir = join(lilo.config.dataDir, "voice");
    ensurePrivateDir(dir);
    const file = join(dir, `answer-${lilo.clock.now().toISOString().replace(/[:.]/g, "-")}.ogg`);
    writeFileSync(file, reply.audio, { mode: 0o600 });
    makePrivate(file);
    say(`🔊 ${file}`);
  } catch (err) {
    lilo.logger.warn("terminal voice reply not written; the text stands", { error: describeError(err) });
  }
}
