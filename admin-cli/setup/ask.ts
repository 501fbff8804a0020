import { createInterface, type Interface } from "node:readline";
import { Writable, type Readable } from "node:stream";

/** Where the setup asks its questions: a terminal, or streams a test writes to. */
export interface SetupStreams {
  input: Readable;
  output: NodeJS.WritableStream;
}

/** One question: its text, the default taken on an empty line, and a check that returns a problem or nothing. */
export interface Question {
  text: string;
  default?: string;
  /** Keys and tokens: the typed text is not echoed, and the default is never shown. */
  secret?: boolean;
  check?: (answer: string) => string | undefined | Promise<string | undefined>;
}

/**
 * Asks questions line by line until each answer passes its check (the
 * problem is printed and the question asked again). Lines that arrive early
 * (piped input) wait in a queue, so no answer is lost.
 */
export class Asker {
  private readonly rl: Interface;
  private readonly lines: string[] = [];
  private readonly waiting: ((line: string | undefined) => void)[] = [];
  private ended = false;
  private muted = false;

  constructor(private readonly io: SetupStreams) {
    const echo = new Writable({
      write: (chunk: Buffer, _enc, done) => {
        // A secret's keystrokes are not echoed; the line end still is, so the next question starts on its own line.
        if (!this.muted || String(chunk).includes("\n")) io.output.write(this.muted ? "\n" : chunk);
        done();
      },
    });
    const terminal = (io.input as { isTTY?: boolean }).isTTY === true;
    this.rl = createInterface({ input: io.input, output: echo, terminal });
    this.rl.on("line", (line) => {
      const next = this.waiting.shift();
      if (next) next(line);
      else this.lines.push(line);
    });
    this.rl.on("close", () => {
      this.ended = true;
      for (const w of this.waiting.splice(0)) w(undefined);
    });
  }

  /** Prints a line. */
  say(text: string): void {
    this.io.output.write(`${text}\n`);
  }

  /** The answer to `q`, checked; throws when the input ends before a valid answer. */
  async ask(q: Question): Promise<string> {
    for (;;) {
      const shown = q.default !== undefined && q.default !== "" && !q.secret ? ` [${q.default}]` : "";
      this.io.output.write(`${q.text}${shown}: `);
      this.muted = q.secret === true;
      const line = await this.nextLine();
      this.muted = false;
      if (line === undefined) throw new SetupAborted();
      const answer = line.trim() || q.default || "";
      const problem = await q.check?.(answer);
      if (!problem) return answer;
      this.say(`  ✗ ${problem}`);
    }
  }

  /**
   * An optional step's question: an empty line skips the step (undefined)
   * whatever was typed before, so a wrong token never traps the user in a
   * question they cannot answer.
   */
  async askOrSkip(q: Question): Promise<string | undefined> {
    const answer = await this.ask({ ...q, default: undefined, check: (a) => (a === "" ? undefined : q.check?.(a)) });
    return answer === "" ? undefined : answer;
  }

  /** One of `choices` by its number (1…n) or its name; `defaultIndex` on an empty line. */
  async choose(text: string, choices: readonly { label: string; name: string }[], defaultIndex = 0): Promise<number> {
    this.say(text);
    choices.forEach((c, i) => this.say(`  ${i + 1}) ${c.label}`));
    const answer = await this.ask({
      text: "→",
      default: String(defaultIndex + 1),
      check: (a) => (pick(a, choices) === undefined ? `1–${choices.length}` : undefined),
    });
    return pick(answer, choices)!;
  }

  close(): void {
    this.rl.close();
  }

  private nextLine(): Promise<string | undefined> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(undefined);
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}

function pick(answer: string, choices: readonly { name: string }[]): number | undefined {
  const n = Number(answer);
  if (Number.isInteger(n) && n >= 1 && n <= choices.length) return n - 1;
  const i = choices.findIndex((c) => c.name.toLowerCase() === answer.toLowerCase());
  return i < 0 ? undefined : i;
}

/** The input ended (Ctrl-D, a closed pipe) before the setup was complete: nothing is written. */
export class SetupAborted extends Error {
  constructor() {
    super("the setup ended before all questions were answered; nothing was written");
    this.name = "SetupAborted";
  }
}
