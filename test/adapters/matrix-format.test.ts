import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SimpleFsStorageProvider } from "matrix-bot-sdk";
import { matrixLineBreaks, renderMatrix } from "../../adapters/matrix/format.ts";
import { messageText } from "../../adapters/matrix/events.ts";
import { reactionAnswer } from "../../adapters/matrix/questions.ts";
import { BotState } from "../../adapters/matrix/state.ts";

describe("Matrix rendering", () => {
  it("keeps the Markdown as the plain body, escaping everything else in the HTML", () => {
    expect(renderMatrix("2 * 3 < 7 and **unclosed", 16_000)).toEqual([{ body: "2 * 3 < 7 and **unclosed", html: "2 * 3 &lt; 7 and **unclosed" }]);
    const [m] = renderMatrix('**a** [x](javascript:alert(1)) <img src=x onerror="y">', 16_000);
    expect(m!.html).toBe('<b>a</b> [x](javascript:alert(1)) &lt;img src=x onerror="y"&gt;');
  });

  it("turns line breaks into <br> except inside code blocks", () => {
    expect(matrixLineBreaks("a\nb<pre><code>x\ny</code></pre>\nc")).toBe("a<br>b<pre><code>x\ny</code></pre>c");
    expect(renderMatrix("Hallo\n\n```\nx < 1\n```\nEnde", 16_000)[0]!.html).toBe("Hallo<br><br><pre>x &lt; 1</pre>Ende");
  });

  it("splits at the limit so every event stays under Matrix's size limit", () => {
    const parts = renderMatrix("<".repeat(50_000), 40_000);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) expect(Buffer.byteLength(p.body) + Buffer.byteLength(p.html)).toBeLessThanOrEqual(60_000);
    expect(parts.map((p) => p.body).join("")).toBe("<".repeat(50_000));
  });
});

describe("Matrix input", () => {
  it("reads only what the user wrote: m.text without a reply's quote, never an edit or a notice", () => {
    expect(messageText({ msgtype: "m.text", body: "  Hallo  " })).toBe("Hallo");
    expect(messageText({ msgtype: "m.notice", body: "bot" })).toBeUndefined();
    expect(messageText({ msgtype: "m.text", body: "* neu", "m.relates_to": { rel_type: "m.replace", event_id: "$1" } })).toBeUndefined();
    const reply = { msgtype: "m.text", body: "> <@lilo:x> Soll ich?\n> zweite Zeile\n\nJa, bitte", "m.relates_to": { "m.in_reply_to": { event_id: "$1" } } };
    expect(messageText(reply)).toBe("Ja, bitte");
  });

  it("maps thumbs with any skin tone or presentation selector to yes/no", () => {
    expect(["👍", "👍️", "👍🏽", "✅"].map(reactionAnswer)).toEqual(["yes", "yes", "yes", "yes"]);
    expect(["👎", "👎🏿", "❌"].map(reactionAnswer)).toEqual(["no", "no", "no"]);
    expect(reactionAnswer("😂")).toBeUndefined();
  });
});

describe("Matrix bot state", () => {
  it("persists its state (allowed rooms, question messages, warnings given) in the SDK's file storage", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lilo-matrix-"));
    try {
      const file = join(dir, "matrix-bot.json");
      const state = await BotState.load(new SimpleFsStorageProvider(file));
      await state.allowRoom("!a:x", "@chris:x");
      await state.rememberQuestion("$q", { questionId: 7, userId: "chris", roomId: "!a:x", hints: [] });
      expect(await state.firstEncryptedWarning("!a:x")).toBe(true);
      const again = await BotState.load(new SimpleFsStorageProvider(file));
      expect(again.isAllowedRoom("!a:x")).toBe(true);
      expect(again.isAllowedRoom("!b:x")).toBe(false);
      expect(again.question("$q")).toMatchObject({ questionId: 7, userId: "chris" });
      expect(await again.firstEncryptedWarning("!a:x")).toBe(false);
      await again.dropRoom("!a:x");
      expect(again.isAllowedRoom("!a:x")).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
