/**
 * The stream-safe side of parse.ts: turns the model's text, as it arrives in
 * pieces, into the visible text a person may already see. It walks the text
 * with parse.ts's own rules and stops at the first place whose reading could
 * still change with what comes next (an opening bracket that may become a
 * marker, a backtick or quotation mark without its partner yet, a fence
 * opener still growing). What lies before that place is decided for good; of
 * it, only what the final whitespace tidy-up and trimming can no longer touch
 * is shown. So every text shown is a prefix of what `parseMarkers` makes of
 * the whole answer, and `end()` hands on exactly the rest.
 */
import type { Marker } from "./marker.ts";
import type { MarkerRegistry } from "./marker-registry.ts";
import {
  BLANK_LINE,
  EMPHASIS,
  FENCE,
  GAP,
  HEAD,
  QUOTES,
  isAllCaps,
  QUOTE_LINE,
  matchMarker,
  parseMarkers,
  quoteEnd,
  tidy,
  withoutColon,
  type ParsedAnswer,
} from "./parse.ts";

/** What could still become a marker head: an opener, a name being written, the spaces before its colon. */
const VIABLE_HEAD = /^(?:\[\[?|\()[ \t]*(?:\p{L}[\p{L}\p{N}_-]*)?[ \t]*$/u;
/** A character at the end of the decided text that a later marker's tidy-up or emphasis may still remove. */
const UNSETTLED = new RegExp(`[\\s${GAP}*_]`);

/** A character no gap run starts or ends on. */
const PLAIN = new RegExp(`[^\\s${GAP}]`);

/**
 * One step of the walk: where it ends and what it adds; "wait" when more
 * text must come first; `copyTo` when the text up to there is certainly
 * copied as it is (an open code block or quote line) but where the step
 * ends is not decided yet.
 */
type Step = { end: number; marker?: Marker; removed?: boolean; wrapped?: string } | { copyTo: number } | "wait";

/** Feeds pieces in; each call returns the text that became visible with it. */
export class MarkerStreamFilter<N extends string = string> {
  private source = "";
  private pos = 0;
  private out = "";
  private shown = "";
  private readonly found: Marker<N>[] = [];
  /** A settled prefix of the decided text and its tidied, trimmed form (see `tidied`). */
  private head = { raw: "", tidy: "" };

  constructor(private readonly registry: MarkerRegistry<N>) {}

  /** Adds a piece of the model's text; returns what may be shown now in addition (often ""). */
  push(piece: string): string {
    this.source += piece.replaceAll(GAP, "");
    const copied = this.advance();
    const decided = this.out + copied;
    let end = decided.length;
    while (end > 0 && UNSETTLED.test(decided[end - 1]!)) end--;
    const settled = decided.slice(0, end);
    const visible = this.tidied(settled);
    if (visible.length <= this.shown.length) return "";
    const added = visible.slice(this.shown.length);
    this.shown = visible;
    return added;
  }

  /**
   * tidy(settled).trimStart(), with the part before the last cut between
   * two plain characters kept from the last call: no gap run reaches over
   * such a cut, so tidying the two sides apart gives the same text, and a
   * long answer costs linear time instead of quadratic.
   */
  private tidied(settled: string): string {
    // The decided text only grows at its end (a marker's wrapping emphasis, taken back there, resets the head):
    // the kept head is still its prefix while it is long enough. Comparing the strings instead would flatten the
    // decided text, built a piece at a time, on every delta: quadratic in the answer's length.
    const head = settled.length >= this.head.raw.length ? this.head : { raw: "", tidy: "" };
    const visible = head.tidy + tidy(settled.slice(head.raw.length));
    const trimmed = head.tidy ? visible : visible.trimStart();
    let cut = settled.length - 1;
    while (cut > head.raw.length && !(PLAIN.test(settled[cut - 1]!) && PLAIN.test(settled[cut]!))) cut--;
    if (cut > head.raw.length + 64) {
      const raw = settled.slice(0, cut);
      this.head = { raw, tidy: head.tidy ? head.tidy + tidy(raw.slice(head.raw.length)) : tidy(raw).trimStart() };
    }
    return trimmed;
  }

  /** The visible text so far. */
  get text(): string {
    return this.shown;
  }

  /** The markers decided so far, in order (a fetch marker among them means a follow-up answer will replace this one). */
  get markers(): readonly Marker<N>[] {
    return this.found;
  }

  /** The answer is complete: the rest of its visible text, and the whole answer parsed as parse.ts does. */
  end(): { rest: string; parsed: ParsedAnswer<N> } {
    const parsed = parseMarkers(this.source, this.registry);
    const rest = parsed.text.startsWith(this.shown) ? parsed.text.slice(this.shown.length) : "";
    this.shown = parsed.text;
    return { rest, parsed };
  }

  /** Walks on from the last decided place as far as the text decides; returns the text certainly copied beyond it. */
  private advance(): string {
    const text = this.source;
    while (this.pos < text.length) {
      const step = this.step(text, this.pos);
      if (step === "wait") return "";
      if ("copyTo" in step) return text.slice(this.pos, step.copyTo);
      if (step.removed) {
        if (step.marker) this.found.push(step.marker as Marker<N>);
        if (step.wrapped) {
          this.out = this.out.slice(0, -step.wrapped.length);
          if (this.out.length < this.head.raw.length) this.head = { raw: "", tidy: "" };
        }
        this.out += GAP;
      } else {
        this.out += text.slice(this.pos, step.end);
      }
      this.pos = step.end;
    }
    return "";
  }

  /** parseMarkers' step at `pos`, or "wait" when the text so far cannot decide it. */
  private step(text: string, pos: number): Step {
    const ch = text[pos]!;
    if (pos === 0 || text[pos - 1] === "\n") {
      const line = lineStart(text, pos);
      if (line !== undefined) return line;
    }
    if (ch === "`") return inlineCode(text, pos);
    if (QUOTES[ch]) return quoted(text, pos, QUOTES[ch]);
    if (ch === "[" || ch === "(") return this.bracket(text, pos);
    return { end: pos + 1 };
  }

  /** A bracket: a marker (decided once its closing bracket is there), or prose once it can no longer become one. */
  private bracket(text: string, pos: number): Step {
    HEAD.lastIndex = pos;
    let head = HEAD.exec(text);
    if (!head) {
      if (VIABLE_HEAD.test(text.slice(pos))) return "wait";
      head = withoutColon(text, pos, this.registry);
      if (!head) return { end: pos + 1 };
    }
    const round = head[1] === "(";
    const rawName = head[2]!;
    // Round brackets or mixed case are prose unless the name is known: decided by the head alone.
    if (!this.registry.resolve(rawName) && (round || !isAllCaps(rawName))) return { end: pos + 1 };
    const from = pos + head[0].length;
    const close = balancedClose(text, from, round ? "(" : "[", round ? ")" : "]");
    // The next character decides a double bracket and emphasis around the marker.
    if (close === undefined || close + 1 >= text.length) return "wait";
    const found = matchMarker(text, pos, this.registry);
    if (!found) return { end: pos + 1 };
    const emphasis = EMPHASIS.exec(this.out)?.[1];
    const after = text.slice(found.end, found.end + (emphasis?.length ?? 0));
    if (emphasis && after.length < emphasis.length && emphasis.startsWith(after)) return "wait";
    const wrapped = emphasis !== undefined && after === emphasis ? emphasis : undefined;
    return {
      end: found.end + (wrapped?.length ?? 0),
      removed: true,
      ...(found.marker ? { marker: found.marker } : {}),
      ...(wrapped ? { wrapped } : {}),
    };
  }
}

/** At a line start: a fenced code block or a `>` quote line (copied as they are), undecided, or neither (undefined). */
function lineStart(text: string, pos: number): Step | undefined {
  let i = pos;
  while (text[i] === " " || text[i] === "\t") i++;
  if (i >= text.length) return "wait";
  const c = text[i]!;
  if (c === "`" || c === "~") {
    let k = i;
    while (text[k] === c) k++;
    if (k >= text.length) return "wait";
    FENCE.lastIndex = pos;
    if (k - i >= 3 && FENCE.test(text)) return fence(text, pos, text.slice(i, k));
  }
  QUOTE_LINE.lastIndex = pos;
  if (!QUOTE_LINE.test(text)) return undefined;
  const nl = text.indexOf("\n", pos);
  return nl < 0 ? { copyTo: text.length } : { end: nl };
}

/**
 * A fenced block: its closing line is decided once a newline follows it.
 * Until then everything so far is inside the block, copied as it is, and
 * the walk waits at the end of the text.
 */
function fence(text: string, pos: number, opener: string): Step {
  const nl = text.indexOf("\n", pos);
  if (nl < 0) return { copyTo: text.length };
  const close = new RegExp(`^[ \\t]*${opener[0]}{${opener.length},}[ \\t]*\\r?$`, "m").exec(text.slice(nl + 1));
  const end = close ? nl + 1 + close.index + close[0].length : text.length;
  // The closing line counts once a newline ends it: "```" may still become "```python", an opener inside the block.
  return end < text.length ? { end } : { copyTo: text.length };
}

/** An inline code span: decided once its partner run arrives, or once a blank line shows it has none. */
function inlineCode(text: string, pos: number): Step {
  let run = pos;
  while (text[run] === "`") run++;
  if (run >= text.length) return "wait";
  const len = run - pos;
  for (let i = run; ;) {
    const j = text.indexOf("`", i);
    if (BLANK_LINE.test(text.slice(i, j < 0 ? text.length : j))) return { end: run };
    if (j < 0) return "wait";
    let k = j;
    while (text[k] === "`") k++;
    if (k >= text.length) return "wait";
    if (k - j === len) return { end: k };
    i = k;
  }
}

/** A quotation: decided by its closing mark, or by the line ending without one. */
function quoted(text: string, pos: number, closers: string): Step {
  const end = quoteEnd(text, pos, closers);
  if (end !== undefined) return { end };
  return text.indexOf("\n", pos) < 0 ? "wait" : { end: pos + 1 };
}

/** The bracket closing a payload at depth 0, as parse.ts's findClose finds it first; undefined while none has arrived. */
function balancedClose(text: string, from: number, open: string, close: string): number | undefined {
  let depth = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === open) depth++;
    else if (text[i] === close) {
      if (depth === 0) return i;
      depth--;
    }
  }
  return undefined;
}
