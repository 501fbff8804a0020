import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { downloadBar } from "../../admin-cli/download-bar.ts";

/** A stream that says it is a terminal and keeps what is written to it. */
function fakeTerminal(isTTY: boolean): NodeJS.WriteStream & { text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as unknown as NodeJS.WriteStream & { text: () => string };
  Object.assign(stream, {
    isTTY,
    columns: 100,
    cursorTo: (_x: number, _y?: unknown, cb?: () => void) => (cb?.(), true),
    clearLine: (_dir: number, cb?: () => void) => (cb?.(), true),
    moveCursor: (_dx: number, _dy: number, cb?: () => void) => (cb?.(), true),
    text: () => chunks.join(""),
  });
  return stream;
}

describe("the local model's download bar", () => {
  it("draws the file's megabytes on a terminal until the last step", () => {
    const terminal = fakeTerminal(true);
    const tell = downloadBar(terminal)!;
    tell({ file: "qwen.gguf", received: 0, total: 20_000_000, finished: false });
    tell({ file: "qwen.gguf", received: 10_000_000, total: 20_000_000, finished: false });
    tell({ file: "qwen.gguf", received: 20_000_000, total: 20_000_000, finished: true });
    expect(terminal.text()).toMatch(/qwen\.gguf \[.*\] \d+% \d+\/20 MB/);
  });

  it("leaves a stream that is no terminal to the core's log lines", () => {
    expect(downloadBar(fakeTerminal(false))).toBeUndefined();
  });
});
