import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import type { Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";

const CHAT_MODEL = "chat_model";
type View = typeof import("../settings-view.ts");

/**
 * `lilo settings [--json]`, `lilo settings set KEY VALUE`, `lilo settings unset KEY`, `lilo settings KEY [VALUE]`:
 * live settings (stored in the database, picked up by the running bot), the chat model, and the
 * configuration that changes only in `.env`.
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
        // Loaded here: the view reads the configuration schema, which `lilo --help` does not need.
        const view = await import("../settings-view.ts");
        const [first, key, value, ...rest] = args;
        if (first === undefined) return showAll(lilo, io, view, o.json === true);
        if (first === "set" || first === "unset") {
          const bad = first === "set" ? key === undefined || value === undefined || rest.length > 0 : key === undefined || value !== undefined;
          if (bad) {
            io.err(`error: usage: lilo settings ${first === "set" ? "set KEY VALUE (quote a value with spaces)" : "unset KEY"}`);
            return 1;
          }
          return change(lilo, io, view, key!, first === "set" ? value! : undefined);
        }
        if (args.length > 2) {
          io.err("error: too many arguments (quote a value with spaces, e.g. a cron pattern)");
          return 1;
        }
        return args.length === 2 ? change(lilo, io, view, first, key!) : showOne(lilo, io, view, first);
      }),
    );
}

/** Sets (`value` given) or unsets a live setting or the chat model. */
function change(lilo: Lilo, io: CliIO, view: View, key: string, value: string | undefined): number {
  if (key === CHAT_MODEL) {
    if (value === undefined || value === "default") lilo.models.resetChat();
    else lilo.models.switchChat(value, lilo.clock.now().toISOString());
    io.out(`${CHAT_MODEL} = ${chatModel(lilo)}`);
    return 0;
  }
  if (lilo.live.has(key)) {
    const now = value === undefined ? lilo.live.unset(key) : lilo.live.set(key, value);
    const row = lilo.live.list().find((r) => r.key === key || r.env === key)!;
    io.out(`${row.key} = ${now}  (${row.source}; the running bot follows within ${lilo.config.live.pollSeconds} s)`);
    return 0;
  }
  const env = view.ENV_SETTINGS.find((s) => s.key === key || s.env === key)?.env ?? view.secretStates(lilo.config).find((s) => s.env === key)?.env;
  if (!env) return unknown(io, key);
  io.err(`error: ${key} comes from the environment: set ${env} in .env and restart Lilo`);
  return 1;
}

function showOne(lilo: Lilo, io: CliIO, { ENV_SETTINGS, origin, secretStates }: View, key: string): number {
  if (key === CHAT_MODEL) {
    io.out(`${CHAT_MODEL} = ${chatModel(lilo)}`);
    return 0;
  }
  const live = lilo.live.list().find((r) => r.key === key || r.env === key);
  if (live) {
    io.out(`${live.key} = ${live.value}  (${live.env}, ${live.source})`);
    return 0;
  }
  const env = ENV_SETTINGS.find((s) => s.key === key || s.env === key);
  const secret = secretStates(lilo.config).find((s) => s.env === key);
  if (env) io.out(`${env.key} = ${env.value(lilo.config)}  (${env.env}, ${origin(env, lilo.config)}; .env only)`);
  else if (secret) io.out(`${secret.env}: ${secret.set ? "set" : "not set"}`);
  else return unknown(io, key);
  return 0;
}

function unknown(io: CliIO, key: string): number {
  io.err(`error: unknown setting "${key}" (run \`lilo settings\` for the list)`);
  return 1;
}

function chatModel(lilo: Lilo): string {
  return `${chatSpec(lilo)}  (${chatSwitched(lilo) ? "switched at run time with `lilo model`; `lilo settings chat_model default` goes back" : "LILO_CHAT_MODEL / first provider with a key"})`;
}

const chatSwitched = (lilo: Lilo) => lilo.settings.stored().some((s) => s.everyone && s.key === CHAT_MODEL);

function chatSpec(lilo: Lilo): string {
  try {
    const s = lilo.models.chatSpec();
    return `${s.provider}:${s.model}`;
  } catch (err) {
    // No model configured is a state to show here, not a failure of the command.
    if (!(err instanceof ConfigError)) throw err;
    return "none configured";
  }
}

function showAll(lilo: Lilo, io: CliIO, { ENV_SETTINGS, looksSecret, origin, secretStates }: View, json: boolean): number {
  const live = lilo.live.list();
  const fromEnv = ENV_SETTINGS.map((s) => ({ key: s.key, env: s.env, value: s.value(lilo.config), source: origin(s, lilo.config) === "default" ? "default" : "env" }));
  if (json) {
    const chat = { key: CHAT_MODEL, env: "LILO_CHAT_MODEL", value: chatSpec(lilo), source: chatSwitched(lilo) ? "set" : "env", live: true };
    const secrets = secretStates(lilo.config).map((s) => ({ key: s.env, env: s.env, value: s.set ? "set" : "not set", source: s.set ? "env" : "default", live: false }));
    io.out(JSON.stringify([chat, ...live.map((r) => ({ ...r, live: true })), ...fromEnv.map((r) => ({ ...r, live: false })), ...secrets]));
    return 0;
  }
  io.out("live (change with `lilo settings set KEY VALUE`; the running bot follows; `unset KEY` goes back to .env):");
  io.out(`  ${CHAT_MODEL} = ${chatModel(lilo)}`);
  for (const r of live) io.out(`  ${r.key} = ${r.value}  (${r.env}, ${r.source})`);
  const hidden = new Set([CHAT_MODEL, ...live.map((r) => r.key)]);
  const state = lilo.settings.stored().filter((s) => !(s.everyone && hidden.has(s.key)));
  if (state.length) io.out("program state (stored in the database):");
  for (const s of state) io.out(`  ${s.key} [${s.everyone ? "everyone" : s.userId}] = ${looksSecret(s.key) ? "(hidden)" : s.value}`);
  io.out("configuration (from .env / the environment; set the variable in .env and restart to change it):");
  for (const s of fromEnv) io.out(`  ${s.key} = ${s.value}  (${s.env}, ${s.source})`);
  io.out("secrets (never shown):");
  for (const s of secretStates(lilo.config)) io.out(`  ${s.env}: ${s.set ? "set" : "not set"}`);
  return 0;
}
