import type { Command } from "commander";
import { liveHolder, type SettingRow } from "../../core/internal.ts";
import { type Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";

/**
 * `lilo settings [--json]`, `lilo settings set KEY VALUE`, `lilo settings unset KEY`, `lilo settings KEY [VALUE]`:
 * live settings (stored in the database, picked up by the running bot), the chat model, and the
 * configuration that changes only in `.env` — all through `lilo.settings`.
 */
export function registerSettings(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("settings [args...]")
    .description(
      "list settings with their value and source (default / env / set); `set KEY VALUE` changes a live one (the running bot follows), `unset KEY` goes back to .env; `chat_model provider:model` switches the chat model",
    )
    .option("--json", "print JSON: [{ key, value, source, env }]")
    .action((args: string[], o: { json?: boolean }) =>
      withLilo(open, io, async (lilo) => {
        const [first, key, value, ...rest] = args;
        if (first === undefined) return showAll(lilo, io, o.json === true);
        if (first === "set" || first === "unset") {
          const bad = first === "set" ? key === undefined || value === undefined || rest.length > 0 : key === undefined || value !== undefined;
          if (bad) {
            io.err(`error: usage: lilo settings ${first === "set" ? "set KEY VALUE (quote a value with spaces)" : "unset KEY"}`);
            return 1;
          }
          return change(lilo, io, key!, first === "set" ? value! : undefined);
        }
        if (args.length > 2) {
          io.err("error: too many arguments (quote a value with spaces, e.g. a cron pattern)");
          return 1;
        }
        return args.length === 2 ? await change(lilo, io, first, key!) : showOne(lilo, io, first);
      }),
    );
}

/** Sets (`value` given) or unsets a live setting or the chat model. */
async function change(lilo: Lilo, io: CliIO, key: string, value: string | undefined): Promise<number> {
  const done = await (value === undefined ? lilo.settings.unset(key) : lilo.settings.set(key, value));
  if (done.kind === "unknown") return unknown(io, key);
  if (done.kind === "env-only") {
    io.err(`error: ${key} comes from the environment: set ${done.env} in .env and restart Lilo`);
    return 1;
  }
  const { row } = done;
  if (row.kind === "chat-model") io.out(`${row.key} = ${chatModel(row)}`);
  else {
    // Only a bot that runs can follow; otherwise the value applies at the next start.
    const bot = liveHolder(lilo.config.dbPath)?.role === "bot";
    io.out(
      `${row.key} = ${row.value}  (${row.source}; ${bot ? `the running bot follows within ${lilo.config.live.pollSeconds} s` : "Lilo uses it from her next start"})`,
    );
  }
  return 0;
}

function showOne(lilo: Lilo, io: CliIO, key: string): number {
  const row = lilo.settings.get(key);
  if (!row) return unknown(io, key);
  if (row.kind === "chat-model") io.out(`${row.key} = ${chatModel(row)}`);
  else if (row.kind === "live") io.out(`${row.key} = ${row.value}  (${row.env}, ${row.source})`);
  else if (row.kind === "config") io.out(`${row.key} = ${row.value}  (${row.env}, ${row.source === "default" ? "default" : "set"}; .env only)`);
  else io.out(`${row.env}: ${row.value}`);
  return 0;
}

function unknown(io: CliIO, key: string): number {
  io.err(`error: unknown setting "${key}" (run \`lilo settings\` for the list)`);
  return 1;
}

function chatModel(row: SettingRow): string {
  return `${row.value}  (${row.source === "set" ? "switched at run time with `lilo model`; `lilo settings chat_model default` goes back" : "LILO_CHAT_MODEL / first provider with a key"})`;
}

function showAll(lilo: Lilo, io: CliIO, json: boolean): number {
  const { live, state, config, secrets } = lilo.settings.list();
  if (json) {
    const plain = ({ key, env, value, source, live }: SettingRow) => ({ key, env, value, source, live });
    io.out(JSON.stringify([...live, ...config, ...secrets].map(plain)));
    return 0;
  }
  io.out("live (change with `lilo settings set KEY VALUE`; the running bot follows; `unset KEY` goes back to .env):");
  for (const r of live) io.out(r.kind === "chat-model" ? `  ${r.key} = ${chatModel(r)}` : `  ${r.key} = ${r.value}  (${r.env}, ${r.source})`);
  if (state.length) io.out("program state (stored in the database):");
  for (const s of state) io.out(`  ${s.key} [${s.userId ?? "everyone"}] = ${s.value}`);
  io.out("configuration (from .env / the environment; set the variable in .env and restart to change it):");
  for (const s of config) io.out(`  ${s.key} = ${s.value}  (${s.env}, ${s.source})`);
  io.out("secrets (never shown):");
  for (const s of secrets) io.out(`  ${s.env}: ${s.value}`);
  return 0;
}
