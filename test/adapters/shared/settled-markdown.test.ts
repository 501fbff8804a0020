import { describe, expect, it } from "vitest";
import { markdownToHtml } from "../../../adapters/shared/format.ts";
import { settledMarkdown } from "../../../adapters/shared/settled-markdown.ts";
import { htmlProblem } from "../../fakes/fake-telegram.ts";

const ANSWER =
  "Hier ist **das Wichtigste** für morgen: starte mit `npm run dev`, lies _kurz_ die Doku unter [Lilos Seite](https://example.org/lilo?a=1&b=2) ~~heute~~.\n\n" +
  "* ein Punkt mit *Betonung*\n" +
  "```ts\nconst gruss = `Hallo ${name}`;\nif (a < b && b > c) gruss;\n```\n\nDanach ist alles **fertig** & du kannst ``lilo `status` `` aufrufen. Geheim: sk-*** bleibt.";

/** What a reader sees of rendered HTML: tags gone, entities decoded. */
const visible = (html: string) =>
  html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

describe("settledMarkdown", () => {
  it("at every cut of an answer the shown part renders as valid HTML without a Markdown delimiter on the screen", () => {
    for (let cut = 1; cut <= ANSWER.length; cut++) {
      const html = markdownToHtml(settledMarkdown(ANSWER.slice(0, cut)));
      expect(htmlProblem(html), `cut ${cut}`).toBeUndefined();
      // Outside code the answer has no backtick or bracket of its own, so any on the screen is half a span.
      const prose = visible(html.replace(/<(pre|code)\b[^>]*>[\s\S]*?<\/\1>/g, "")).replace("sk-***", "");
      expect(prose, `cut ${cut}`).not.toMatch(/\*\*|~~|`|\]\(|\[Lilo|_kurz/);
    }
  });

  it("what is shown only grows and ends as the whole answer", () => {
    let before = "";
    for (let cut = 1; cut <= ANSWER.length; cut++) {
      const shown = settledMarkdown(ANSWER.slice(0, cut)).replace(/\n?```$/, "");
      expect(ANSWER.startsWith(shown) || shown.startsWith(before), `cut ${cut}`).toBe(true);
      before = shown;
    }
    expect(settledMarkdown(ANSWER)).toBe(ANSWER);
  });

  it("shows an open code block closed, with its code so far", () => {
    expect(settledMarkdown("So:\n```ts\nconst a = 1;\ncon")).toBe("So:\n```ts\nconst a = 1;\ncon\n```");
    expect(settledMarkdown("So:\n```ts")).toBe("So:\n");
  });

  it("keeps a line whose stars are a bullet, a product or a redacted secret", () => {
    for (const line of ["* erster Punkt", "3 * 4 = 12", "Token: sk-*** ist ersetzt", "snake_case_name bleibt"]) expect(settledMarkdown(line)).toBe(line);
  });
});
