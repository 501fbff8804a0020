/**
 * fetch_url (docs/spec.md §5): reads one page for the model. HTML becomes readable
 * text with Mozilla's Readability (the Firefox Reader View algorithm: it
 * drops navigation, ads and footers and keeps the article) on linkedom, a
 * small server-side DOM; when Readability finds no article, the body text is
 * used. Plain text and JSON are passed through; other types are refused
 * with a reason. The model gets title, final URL and the first N characters.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { LookupError } from "../../foundation/errors.ts";
import { safeFetch, type SafeFetchOptions } from "./safe-fetch.ts";

/** A page as the model sees it. */
export interface ReadPage {
  title: string;
  url: string;
  text: string;
  /** The text was longer than `maxChars` (or the body over the byte cap). */
  cut: boolean;
}

const BLOCKS = "p,h1,h2,h3,h4,h5,h6,li,pre,blockquote,tr,dt,dd,figcaption,br,div,section,article";

/** Fetches `url` safely and returns its readable text, at most `maxChars` characters. */
export async function readPage(url: string, o: SafeFetchOptions & { maxChars: number }): Promise<ReadPage> {
  const fetched = await safeFetch(url, o);
  const type = fetched.contentType.split(";")[0]!.trim().toLowerCase();
  const raw = decode(fetched.body, fetched.contentType);
  let title = "";
  let text: string;
  if (type === "text/html" || type === "application/xhtml+xml") ({ title, text } = htmlToText(raw));
  else if (type === "text/plain" || type === "text/markdown" || type === "application/json" || type.endsWith("+json")) text = raw.trim();
  else throw new LookupError("refused", `${type || "a response without content type"} is not a page Lilo can read (only HTML, plain text and JSON)`);
  const cut = text.length > o.maxChars;
  return { title, url: fetched.url, text: cut ? `${text.slice(0, o.maxChars).trimEnd()} …` : text, cut: cut || fetched.truncated };
}

function decode(body: Buffer, contentType: string): string {
  const charset = /charset=([^;]+)/i.exec(contentType)?.[1]?.trim().replace(/"/g, "") ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    // An unknown charset label: UTF-8 with replacement characters beats refusing the page.
    return new TextDecoder("utf-8").decode(body);
  }
}

/** Title and readable text of an HTML document. */
export function htmlToText(html: string): { title: string; text: string } {
  const { document } = parseHTML(html);
  const fallbackTitle = document.querySelector("title")?.textContent?.trim() ?? "";
  // Readability changes the document it reads; it gets its own copy.
  const article = new Readability(parseHTML(html).document as unknown as ConstructorParameters<typeof Readability>[0]).parse();
  const root = article?.content ? parseHTML(`<html><body>${article.content}</body></html>`).document.body : document.body;
  for (const el of root?.querySelectorAll("script,style,noscript,template,svg") ?? []) el.remove();
  for (const el of root?.querySelectorAll(BLOCKS) ?? []) el.after("\n");
  const text = (root?.textContent ?? "")
    .split("\n")
    .map((l: string) => l.replace(/[ \t\u00a0]+/g, " ").trim())
    .filter((l: string, i: number, all: string[]) => l || (i > 0 && all[i - 1]))
    .join("\n")
    .trim();
  return { title: article?.title?.trim() || fallbackTitle, text };
}
