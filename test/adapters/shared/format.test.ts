import { describe, expect, it } from "vitest";
import { escapeHtml, markdownToHtml, renderChunks, splitMarkdown, splitText } from "../../../adapters/shared/format.ts";
import { htmlProblem } from "../../fakes/fake-telegram.ts";

describe("markdownToHtml", () => {
  it.each([
    ["**bold** and __bold__", "<b>bold</b> and <b>bold</b>"],
    ["*italic* and _italic_", "<i>italic</i> and <i>italic</i>"],
    ["~~gone~~", "<s>gone</s>"],
    ["`a < b && c`", "<code>a &lt; b &amp;&amp; c</code>"],
    ["``x ` y``", "<code>x ` y</code>"],
    ["```ts\nconst a = 1 < 2;\n```", '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>'],
    ["```\nplain\n```", "<pre>plain</pre>"],
    ['[Seite](https://example.org/?a=1&b="2")', '<a href="https://example.org/?a=1&amp;b=&quot;2&quot;">Seite</a>'],
    ["**a *b* c**", "<b>a <i>b</i> c</b>"],
    ["## Titel", "<b>Titel</b>"],
    ["## Titel ##", "<b>Titel</b>"],
    ["## Learn C#", "<b>Learn C#</b>"],
    ["* eins\n- zwei", "• eins\n• zwei"],
  ])("renders %j", (md, html) => {
    expect(markdownToHtml(md)).toBe(html);
  });

  it.each([
    ["2 * 3 < 7 and **unclosed", "2 * 3 &lt; 7 and **unclosed"],
    ["snake_case_name and file_name.ts", "snake_case_name and file_name.ts"],
    ["a ** b", "a ** b"],
    // A redacted secret ("***", core/foundation/util/redact.ts) in an English error message stays literal.
    ["key sk-***; Authorization: Bearer ***", "key sk-***; Authorization: Bearer ***"],
    ["<script>alert(1)</script> & co", "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co"],
    ["[click](javascript:alert(1))", "[click](javascript:alert(1))"],
    ["*kein\nitalic*", "*kein\nitalic*"],
    ["`", "`"],
    ["```unclosed", "```unclosed"],
  ])("keeps %j as literal text", (md, html) => {
    expect(markdownToHtml(md)).toBe(html);
  });

  it("always produces HTML Telegram can parse, whatever the model writes", () => {
    const pieces = ["*", "**", "_", "__", "~~", "`", "```", "[", "](", ")", "<", ">", "&", "<b>", "\n", " ", "a", "ü", "https://x.y", "#", "- ", "&amp;"];
    let seed = 42;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 2000; i++) {
      const md = Array.from({ length: 1 + rand(25) }, () => pieces[rand(pieces.length)]).join("");
      const html = markdownToHtml(md);
      expect(htmlProblem(html), `${JSON.stringify(md)} → ${html}`).toBeUndefined();
    }
  });

  it("escapes attributes only when asked", () => {
    expect(escapeHtml('a"b')).toBe('a"b');
    expect(escapeHtml('a"b', true)).toBe("a&quot;b");
  });
});

describe("splitText", () => {
  it("prefers paragraph, then line, then sentence, then word borders", () => {
    expect(splitText("Erster Absatz hier.\n\nZweiter Absatz.", 25)).toEqual(["Erster Absatz hier.", "Zweiter Absatz."]);
    expect(splitText("Zeile eins ist da\nZeile zwei", 20)).toEqual(["Zeile eins ist da", "Zeile zwei"]);
    expect(splitText("Ein Satz. Noch ein Satz hier", 20)).toEqual(["Ein Satz.", "Noch ein Satz hier"]);
    expect(splitText("eins zwei drei vier", 10)).toEqual(["eins zwei", "drei vier"]);
  });

  it("cuts inside a word only when the word alone is too long", () => {
    expect(splitText("Donaudampfschifffahrt ja", 10)).toEqual(["Donaudampf", "schifffahr", "t ja"]);
  });

  it("never splits a surrogate pair", () => {
    const parts = splitText("😀😀😀", 3);
    expect(parts.join("")).toBe("😀😀😀");
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(3);
  });

  it("loses nothing but whitespace at the cuts", () => {
    const text = Array.from({ length: 300 }, (_, i) => `Satz ${i} hat Worte${i % 7 === 0 ? ".\n\n" : i % 3 === 0 ? "! " : " "}`).join("");
    const parts = splitText(text, 500);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(500);
    expect(parts.join("").replace(/\s/g, "")).toBe(text.replace(/\s/g, ""));
  });
});

describe("splitMarkdown / renderChunks", () => {
  it("carries a code block cut by a split over into the next part: closed here, reopened there", () => {
    const md = "Code:\n\n```py\n" + "x = 1\n".repeat(300) + "```\nFertig.";
    const parts = splitMarkdown(md, 1000);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) {
      expect(p.length).toBeLessThanOrEqual(1000);
      expect((p.match(/```/g) ?? []).length % 2).toBe(0);
    }
    expect(parts[1]!.startsWith("```py\n")).toBe(true);
    for (const c of renderChunks(md, 1000)) expect(htmlProblem(c.html)).toBeUndefined();
  });

  it("keeps the indentation of code lines after a cut", () => {
    const md = "```py\n" + "    x = 1\n".repeat(40) + "```";
    const parts = splitMarkdown(md, 100);
    expect(parts.length).toBeGreaterThan(2);
    for (const p of parts) {
      const code = p.split("\n").filter((l) => !l.startsWith("```"));
      expect(
        code.every((l) => l === "    x = 1"),
        JSON.stringify(p),
      ).toBe(true);
    }
  });

  it("never leaves a part with nothing but fences, which would be an empty message", () => {
    // The closing fence falls just behind the first cut.
    const md = "Code:\n\n```py\n" + "x = 1\n".repeat(20) + "```";
    const parts = splitMarkdown(md, 100);
    expect(parts).toHaveLength(2);
    for (const c of renderChunks(md, 100)) expect(c.html.replace(/<[^>]*>/g, "").trim(), c.plain).not.toBe("");
    expect(parts.join("\n").match(/x = 1/g)).toHaveLength(20);
  });

  it("keeps a short answer as one part", () => {
    expect(renderChunks("  **Hi**  ")).toEqual([{ html: "<b>Hi</b>", plain: "**Hi**" }]);
  });

  it("drops an empty answer", () => {
    expect(renderChunks("   ")).toEqual([]);
  });
});
