import type { Writable } from "node:stream";
import type { AnswerStream, StreamUpdate, TurnResult } from "../../core/index.ts";

/**
 * One answer printed as it is written: the name, then each piece the core's
 * marker filter lets through, straight to the output. `finish` completes the
 * line with the final text. Whitespace at the end of what was written is
 * held back until more text follows, as the final answer is trimmed.
 */
export class TerminalLiveAnswer {
  /** For `handleMessage(message, { stream })`. */
  readonly stream: AnswerStream;
  private written = "";
  private started = false;

  constructor(
    private readonly output: Writable,
    private readonly name: string,
  ) {
    this.stream = { onText: (update) => this.onText(update) };
  }

  /**
   * Ends the printed answer with the rest of the final text (the whole text
   * on a fresh line when it differs from what was printed) and the mood.
   * False when nothing was printed yet: the caller prints the answer whole.
   */
  finish(result: TurnResult, mood: string): boolean {
    if (!this.started) return false;
    this.started = false;
    const rest = result.text.startsWith(this.written) ? result.text.slice(this.written.length) : `\n${this.name}: ${result.text}`;
    this.output.write(`${rest}${mood}\n`);
    return true;
  }

  private onText(update: StreamUpdate): void {
    const text = update.text.trimEnd();
    if (!text) return;
    if (!this.started) {
      this.started = true;
      this.output.write(`${this.name}: `);
    } else if (update.restarted || !text.startsWith(this.written)) {
      // A later model call of the turn writes the answer anew: it starts on a fresh line.
      this.output.write(`\n${this.name}: `);
      this.written = "";
    }
    this.output.write(text.slice(this.written.length));
    this.written = text;
  }
}
