import { InvalidArgumentError, type Command } from "commander";
import { writeFileSync } from "node:fs";
import { PRIVATE_FILE_MODE, makePrivate, EXPORT_STORES, type ExportStore } from "../../core/internal.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo, userOption } from "./shared.ts";

const DEFAULT_STORES = EXPORT_STORES.filter((s) => s !== "messages");

function parseStores(value: string): ExportStore[] {
  const names = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const n of names) {
    if (!(EXPORT_STORES as readonly string[]).includes(n)) throw new InvalidArgumentError(`unknown store "${n}" (use ${EXPORT_STORES.join(", ")})`);
  }
  return names as ExportStore[];
}

/** `lilo export`: every store as JSON Lines; the memory stores' lines are `lilo memory import` input. */
export function registerExport(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("export")
    .description("export notes, important, thoughts, diary, profile, rules, topics, reminders as JSON Lines (no settings, no secrets)")
    .option(...userOption)
    .option("--all", "every user")
    .option("--store <list>", `only these stores, comma-separated (${EXPORT_STORES.join(", ")})`, parseStores)
    .option("--messages", "also the chat log (every message verbatim)")
    .option("--usage", "also the usage ledger (every model call with its tokens and cost; not read by `lilo import`)")
    .option("-o, --out <file>", "write to a file (encrypted with LILO_DATA_KEY, read back by `lilo import`)")
    .option("--plain", "readable JSON Lines instead of an encrypted file (to stdout without --out); anyone with the file reads it")
    .action((o: { user?: string; all?: boolean; store?: ExportStore[]; messages?: boolean; usage?: boolean; out?: string; plain?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        if (o.all && o.user) {
          io.err("error: use either --user or --all");
          return 1;
        }
        const sealed = lilo.transfer.sealsExports && !o.plain;
        if (!o.out && sealed) {
          io.err("error: the export is encrypted: write it with --out FILE, or add --plain for readable JSON Lines on stdout");
          return 1;
        }
        const userId = o.all ? undefined : (o.user ?? lilo.config.terminal.userId);
        const stores = o.store ?? [...DEFAULT_STORES, ...(o.messages ? (["messages"] as const) : [])];
        const counts: string[] = [];
        const lines: string[] = [];
        for (const store of stores) {
          const exported = lilo.transfer.export(store, userId);
          counts.push(`${store} ${exported.length}`);
          for (const line of exported) lines.push(JSON.stringify(line));
        }
        if (o.usage) {
          const calls = lilo.usage.entries().filter((e) => userId === undefined || e.userId === userId);
          counts.push(`usage ${calls.length}`);
          for (const { at, userId: user, ...e } of calls)
            lines.push(JSON.stringify({ store: "usage", text: `${e.provider}:${e.model} ${e.purpose}`, createdAt: at, userId: user ?? "", ...e }));
        }
        if (!sealed) {
          io.err(
            !lilo.transfer.sealsExports
              ? "warning: the export is not encrypted (no LILO_DATA_KEY): anyone with it reads her memory"
              : "warning: --plain: the export is not encrypted; anyone with it reads her memory",
          );
        }
        if (o.out) {
          const text = lines.length ? `${lines.join("\n")}\n` : "";
          // Memories and messages: readable by the owner only, like the database; sealed with the data key unless --plain.
          writeFileSync(o.out, sealed ? lilo.transfer.sealExport(text) : text, { mode: PRIVATE_FILE_MODE });
          makePrivate(o.out);
          io.out(`exported ${lines.length} lines to ${o.out} (${counts.join(", ")})`);
        } else for (const l of lines) io.out(l);
        return 0;
      }),
    );
}
