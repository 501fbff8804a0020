import type { Command } from "commander";
import { GLOBAL } from "../../core/store/settings.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Lilo } from "../../core/index.ts";
import type { CliIO, LiloOpener } from "../context.ts";
import { withLilo } from "./shared.ts";

const CHAT_MODEL = "chat_model";

/** `lilo settings [KEY [VALUE]]`: run-time settings (changeable here) and configuration (changed in .env). */
export function registerSettings(program: Command, open: LiloOpener, io: CliIO): void {
  program
    .command("settings [key] [value]")
    .description("show settings and configuration with their sources; `lilo settings chat_model provider:model` switches the chat model")
    .action((key: string | undefined, value: string | undefined) =>
      withLilo(open, io, async (lilo) => {
        // Loaded here: the view reads the configuration schema, which `lilo --help` does not need.
        const { ENV_SETTINGS, origin, secretStates } = await import("../settings-view.ts");
        if (key === undefined) return showAll(lilo, io, await import("../settings-view.ts"));
        if (key === CHAT_MODEL) {
          if (value === "default") lilo.models.resetChat();
          else if (value !== undefined) lilo.models.switchChat(value, lilo.clock.now().toISOString());
          io.out(`${CHAT_MODEL} = ${chatModel(lilo)}`);
          return 0;
        }
        const env = ENV_SETTINGS.find((s) => s.key === key || s.env === key);
        const secret = secretStates(lilo.config).find((s) => s.env === key);
        if (!env && !secret) {
          io.err(`error: unknown setting "${key}" (run \`lilo settings\` for the list)`);
          return 1;
        }
        const name = env?.env ?? secret!.env;
        if (value !== undefined) {
          io.err(`error: ${key} comes from the environment: set ${name} in .env and restart Lilo`);
          return 1;
        }
        io.out(env ? `${env.key} = ${env.value(lilo.config)}  (${env.env}, ${origin(env, lilo.config)})` : `${name}: ${secret!.set ? "set" : "not set"}`);
        return 0;
      }),
    );
}

function chatModel(lilo: Lilo): string {
  const saved = lilo.stores.settings.get(CHAT_MODEL);
  let spec: string;
  try {
    const s = lilo.models.chatSpec();
    spec = `${s.provider}:${s.model}`;
  } catch (err) {
    // No model configured is a state to show here, not a failure of the command.
    if (!(err instanceof ConfigError)) throw err;
    spec = "none configured";
  }
  return `${spec}  (${saved ? "switched at run time with `lilo model`; `lilo settings chat_model default` goes back" : "LILO_CHAT_MODEL / first provider with a key"})`;
}

function showAll(lilo: Lilo, io: CliIO, { ENV_SETTINGS, looksSecret, origin, secretStates }: typeof import("../settings-view.ts")): number {
  io.out("run time (stored in the database, changeable now):");
  io.out(`  ${CHAT_MODEL} = ${chatModel(lilo)}`);
  const state = lilo.db.prepare(`SELECT user_id, key, value FROM settings WHERE NOT (user_id = ? AND key = ?) ORDER BY key, user_id`).all(GLOBAL, CHAT_MODEL) as { user_id: string; key: string; value: string }[];
  for (const s of state) io.out(`  ${s.key} [${s.user_id === GLOBAL ? "everyone" : s.user_id}] = ${looksSecret(s.key) ? "(hidden)" : s.value}  (program state)`);
  io.out("configuration (from .env / the environment; set the variable in .env and restart to change it):");
  for (const s of ENV_SETTINGS) io.out(`  ${s.key} = ${s.value(lilo.config)}  (${s.env}, ${origin(s, lilo.config)})`);
  io.out("secrets (never shown):");
  for (const s of secretStates(lilo.config)) io.out(`  ${s.env}: ${s.set ? "set" : "not set"}`);
  return 0;
}
