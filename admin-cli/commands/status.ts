import type { Command } from "commander";
import { recallLine, type ContactStatus, type HistoryExtractionProgress } from "../../core/internal.ts";
import type { Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { localStamp } from "./local-time.ts";
import { withLilo } from "./shared.ts";
import { todaysSpend } from "./usage.ts";

/** `lilo status`: when each adapter and model was last reached, and the last failure. */
export function registerStatus(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("status")
    .description("where Lilo lives (home, .env, database), and the last contact of each adapter (Telegram, Matrix) and model, with the last failure")
    .option("--json", "print the list as JSON")
    .action((o: { json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const contacts = await statusRows(lilo);
        // How the bot recalls, once the embedding model went missing: by words only, catching up, or full again.
        const recall = lilo.maintenance.recallState();
        // Imported chats whose memories are still being read (or wait for the budget).
        const imports = lilo.history.extracting().map((p) => ({ name: `history import ${p.importId}`, ...p, line: extractionLine(p) }));
        if (o.json) {
          io.out(JSON.stringify([...contacts, ...(recall ? [{ name: "recall", ...recall, line: recallLine(recall) }] : []), ...imports]));
          return 0;
        }
        const now = lilo.clock.now().getTime();
        const local = (iso: string) => localStamp(iso, lilo.config.timezone);
        // Where this Lilo lives, so a user running `lilo` elsewhere sees which data it reached.
        io.out(`${"home".padEnd(34)} ${lilo.config.home ?? process.cwd()}`);
        io.out(`${"configuration".padEnd(34)} ${lilo.config.run.envFile}`);
        io.out(`${"data".padEnd(34)} ${lilo.config.dbPath}`);
        for (const r of contacts) {
          const ok = r.lastOkAt ? `last contact ${local(r.lastOkAt)} (${ago(now, r.lastOkAt)})` : "never reached";
          const failed = r.lastFailureAt ? `; last failure ${local(r.lastFailureAt)}: ${r.lastError ?? "?"}` : "";
          io.out(`${r.name.padEnd(34)} ${ok}${failed}`);
        }
        if (recall) io.out(recallLine(recall));
        for (const p of imports) io.out(p.line);
        io.out(todaysSpend(lilo));
        return 0;
      }),
    );
}

/** Every recorded contact, plus the configured adapters and chat model that have none yet. */
async function statusRows(lilo: Lilo): Promise<ContactStatus[]> {
  const contacts = lilo.contacts.list();
  // Loaded here, not at the top: `lilo --help` must not pay for the configuration table.
  const { configuredAdapters } = await import("../../adapters/config.ts");
  const expected = configuredAdapters(lilo.config);
  try {
    const chat = lilo.models.chatSpec();
    expected.push(`model ${chat.provider}:${chat.model}`);
  } catch {
    // No chat model configured: nothing to expect; the contacts recorded so far still show.
  }
  for (const name of expected) if (!contacts.some((c) => c.name === name)) contacts.push({ name });
  return contacts;
}

/** One import's extraction as status shows it: how far it got, and why it waits. */
function extractionLine(p: HistoryExtractionProgress): string {
  const share = p.total ? Math.floor((p.done / p.total) * 100) : 100;
  const state = p.paused ? `; paused: ${p.paused}` : "; continues in the background (lilo import-history extract runs it now)";
  return `history import ${p.importId} (${p.format}): memories from ${p.done} of ${p.total} messages (${share} %)${state}`;
}

function ago(now: number, iso: string): string {
  const s = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7_200) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3_600)} h ago`;
  return `${Math.round(s / 86_400)} days ago`;
}
