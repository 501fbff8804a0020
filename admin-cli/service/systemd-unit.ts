import { isAbsolute, relative, resolve } from "node:path";

/** What a systemd unit for one Lilo install is made of. */
export interface UnitOptions {
  /** A unit for the user's own service manager (`systemctl --user`) rather than the system's. */
  user: boolean;
  /** Lilo's home: `.env` and, unless moved, `data/`; the working directory. */
  home: string;
  /** The folder Lilo is installed in (main.ts, node_modules). */
  install: string;
  /** The Node binary that runs her. */
  node: string;
  /** Folders she writes besides her home (the data folder and model folders when set elsewhere). */
  writable: string[];
  /** LILO_DATA_KEY_FILE when set: the key reaches her as a systemd credential. */
  keyFile?: string;
  /** LILO_SHUTDOWN_GRACE_S: the stop timeout leaves room for it. */
  graceS: number;
  /** For a system unit: the account she runs as (never root by default). */
  account?: { user: string; group: string };
}

/** The name under which the unit is installed and the credential the data key is loaded as. */
export const UNIT_NAME = "lilo.service";
export const KEY_CREDENTIAL = "lilo-data-key";

/**
 * The unit file: `npm start`'s own command (Node with tsx's loader on
 * main.ts), restarted on failure, with the hardening that fits a program
 * that only writes its home: the rest of the file system read-only, no new
 * privileges, a private /tmp.
 */
export function systemdUnit(o: UnitOptions): string {
  const home = resolve(o.home);
  // Folders outside the home, each once (a model folder inside the data folder is covered by it).
  const outside = [...new Set(o.writable.map((p) => resolve(p)))].filter((p) => !inside(p, home));
  const extra = outside.filter((p) => !outside.some((q) => q !== p && inside(p, q)));
  const loader = resolve(o.install, "node_modules/tsx/dist/loader.mjs");
  const lines = [
    "[Unit]",
    "Description=Lilo, a personal AI companion",
    `Documentation=file://${resolve(o.install, "docs/operations.md")}`,
    ...(o.user ? [] : ["Wants=network-online.target", "After=network-online.target"]),
    "",
    "[Service]",
    "Type=simple",
    ...(o.account ? [`User=${o.account.user}`, `Group=${o.account.group}`] : []),
    // A path setting takes the rest of the line as it is: no quotes.
    `WorkingDirectory=${home.replace(/%/g, "%%")}`,
    `Environment=${quote(`LILO_HOME=${home}`)}`,
    ...keyLines(o),
    `ExecStart=${[o.node, "--import", loader, resolve(o.install, "main.ts")].map(quote).join(" ")}`,
    "Restart=on-failure",
    "RestartSec=5",
    // SIGTERM starts the graceful stop; the timeout leaves room for the grace time and the close.
    "KillSignal=SIGTERM",
    `TimeoutStopSec=${o.graceS + 20}`,
    "SyslogIdentifier=lilo",
    "NoNewPrivileges=yes",
    "ProtectSystem=strict",
    `ReadWritePaths=${[home, ...extra.map((p) => `-${p}`)].map(quote).join(" ")}`,
    "PrivateTmp=yes",
    "ProtectKernelTunables=yes",
    "ProtectKernelModules=yes",
    "ProtectControlGroups=yes",
    "RestrictSUIDSGID=yes",
    "LockPersonality=yes",
    "UMask=0077",
    "",
    "[Install]",
    `WantedBy=${o.user ? "default.target" : "multi-user.target"}`,
    "",
  ];
  return lines.join("\n");
}

/**
 * The data key file: a system unit loads it as a credential (readable by
 * the service only, under $CREDENTIALS_DIRECTORY); the user's own service
 * manager of older systemd versions has no credentials, so there the file
 * is named directly.
 */
function keyLines(o: UnitOptions): string[] {
  if (!o.keyFile) return [];
  const file = resolve(o.keyFile);
  if (o.user) return [`Environment=${quote(`LILO_DATA_KEY_FILE=${file}`)}`];
  // %d: the service's credentials directory.
  return [`LoadCredential=${KEY_CREDENTIAL}:${file.replace(/%/g, "%%")}`, `Environment=LILO_DATA_KEY_FILE=%d/${KEY_CREDENTIAL}`];
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** systemd's quoting: a word with spaces or quotes in double quotes, `\` and `"` escaped; `%` doubled (a specifier otherwise). */
function quote(word: string): string {
  const w = word.replace(/%/g, "%%");
  return /[\s"'\\]/.test(w) ? `"${w.replace(/[\\"]/g, (c) => `\\${c}`)}"` : w;
}
