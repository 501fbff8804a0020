import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join } from "node:path";
import { loadConfigFromEnv } from "../../core/index.ts";
import { installDir } from "../../core/internal.ts";
import { ADAPTER_SECTIONS } from "../../adapters/config.ts";
import type { CliIO } from "../context.ts";
import { systemdUnit, UNIT_NAME, type UnitOptions } from "./systemd-unit.ts";

export { systemdUnit as unitText } from "./systemd-unit.ts";

/**
 * The unit's parts for this install, from the same configuration `npm
 * start` reads (`.env` and the environment): her home, the folders she
 * writes, the grace time, and LILO_DATA_KEY_FILE when it is set.
 */
export async function unitOptions(user: boolean): Promise<UnitOptions> {
  const install = installDir(import.meta.url);
  const config = loadConfigFromEnv(process.env, ADAPTER_SECTIONS, install);
  const home = config.home ?? process.cwd();
  const keyFile = process.env.LILO_DATA_KEY_FILE?.trim();
  return {
    user,
    home,
    install: install ?? home,
    node: process.execPath,
    writable: [config.dataDir, config.embedding.localDir, config.local.dir, config.analysis.dir],
    graceS: config.run.shutdownGraceS,
    ...(keyFile ? { keyFile } : {}),
    // A system unit runs as the owner of her home (the one who set her up), also when `sudo lilo` printed it.
    ...(user ? {} : { account: homeOwner(home) }),
  };
}

/** The user's systemd folder: $XDG_CONFIG_HOME/systemd/user, else ~/.config/systemd/user. */
export function userUnitDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME?.trim() || join(homedir(), ".config"), "systemd", "user");
}

/**
 * `lilo service install --user`: writes the unit, runs `systemctl --user
 * daemon-reload` and `enable`, and says how to start her and read her
 * journal. Without systemctl the unit is written and the reason said.
 */
export async function installUserUnit(io: CliIO): Promise<number> {
  const text = systemdUnit(await unitOptions(true));
  const dir = userUnitDir();
  const path = join(dir, UNIT_NAME);
  const had = existsSync(path) ? readFileSync(path, "utf8") : undefined;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, text);
  io.out(had === undefined ? `Wrote ${path}.` : had === text ? `${path} is up to date.` : `Replaced ${path} with the unit for this install.`);
  for (const args of [
    ["--user", "daemon-reload"],
    ["--user", "enable", UNIT_NAME],
  ]) {
    const r = spawnSync("systemctl", args, { encoding: "utf8" });
    if (r.error && (r.error as NodeJS.ErrnoException).code === "ENOENT") {
      io.err(
        `systemctl was not found, so the unit was written but not enabled: this machine does not run systemd (a container or another init system). Run Lilo with \`npm start\` under your supervisor, or use the container (docs/operations.md).`,
      );
      return 1;
    }
    if (r.status !== 0) {
      const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim();
      io.err(
        `\`systemctl ${args.join(" ")}\` failed: ${why}. The unit is in ${path}; a user service manager needs a login session (or \`loginctl enable-linger\`).`,
      );
      return 1;
    }
  }
  io.out(
    [
      `Enabled ${UNIT_NAME}: it starts with your user session.`,
      "Start it now:        systemctl --user start lilo",
      "Follow her log:      journalctl --user -u lilo -f",
      `Start at boot, without a login: loginctl enable-linger ${userInfo().username}`,
    ].join("\n"),
  );
  return 0;
}

/** The account owning `home` (user and group names); the current user when the home or the names cannot be read. */
export function homeOwner(home: string): { user: string; group: string } {
  const me = userInfo();
  const ids = existsSync(home) ? statSync(home) : { uid: me.uid, gid: me.gid };
  const user = nameOf("/etc/passwd", ids.uid) ?? (ids.uid === me.uid ? me.username : String(ids.uid));
  return { user, group: nameOf("/etc/group", ids.gid) ?? user };
}

/** The name of a numeric id in /etc/passwd or /etc/group; undefined when the file cannot be read or lacks it. */
function nameOf(file: string, id: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // Not a usual Linux (no such file): the caller falls back to the current user's name.
    return undefined;
  }
  const line = text.split("\n").find((l) => l.split(":")[2] === String(id));
  return line?.split(":")[0] || undefined;
}
