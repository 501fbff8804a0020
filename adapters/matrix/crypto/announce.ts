import { describeError } from "../../../core/index.ts";
import type { MatrixContext } from "../context.ts";
import { CRYPTO_TEXTS } from "./crypto-texts.ts";
import type { DeviceNews } from "./start-e2ee.ts";

/**
 * Tells the user of every allowed private room about Lilo's new device or
 * her lost keys, so an "unable to decrypt" in their client has an
 * explanation. A lost store is said in plain text: the user's devices do
 * not know the new keys, an encrypted notice would be unreadable.
 */
export async function announceDevice(ctx: MatrixContext, news: DeviceNews): Promise<void> {
  const t = CRYPTO_TEXTS[ctx.lilo.config.persona.language];
  const text = news.kind === "lost-store" ? t.lostStore(news.deviceId) : t.newDevice(news.deviceId, news.fingerprint);
  for (const [roomId] of ctx.state.allowedRooms()) {
    try {
      if (!(await ctx.privacy.partner(roomId))) continue;
      const content = { msgtype: "m.notice", body: text };
      if (news.kind === "lost-store") await ctx.client.sendRawEvent(roomId, "m.room.message", content);
      else await ctx.client.sendMessage(roomId, content);
    } catch (err) {
      ctx.logger.warn("matrix device notice not sent", { roomId, error: describeError(err) });
    }
  }
}
