import type { Command } from "commander";
import type { CliIO } from "../context.ts";

/** The flags of `lilo service print` and `lilo service install`. */
interface ServiceFlags {
  systemd?: boolean;
  user?: boolean;
}

/**
 * `lilo service`: Lilo as a service of the machine. `print --systemd
 * [--user]` prints a unit for this install; `install --user` writes it into
 * the user's systemd folder and enables it.
 */
export function registerService(program: Command, io: CliIO): void {
  const service = program.command("service").description("run Lilo as a service: a systemd unit for this install");
  service
    .command("print")
    .description("print a systemd unit for this install (ExecStart, home, restart on failure, hardening)")
    .option("--systemd", "a systemd unit (the only format so far)")
    .option("--user", "for your own service manager (systemctl --user) instead of the system's")
    .action(async (o: ServiceFlags) => {
      process.exitCode = await run(io, async (m) => {
        if (!o.systemd) {
          io.err("Say which kind: `lilo service print --systemd` (add --user for systemctl --user).");
          return 2;
        }
        const unit = await m.unitOptions(Boolean(o.user));
        io.out(m.unitText(unit).trimEnd());
        // On stderr, so `… | sudo tee` still gets the unit alone.
        if (unit.account?.user === "root")
          io.err("The unit runs Lilo as root, because root owns her home: give the home to an ordinary user (chown -R) and print the unit again.");
        return 0;
      });
    });
  service
    .command("install")
    .description("write the systemd unit to ~/.config/systemd/user/lilo.service, reload systemd and enable it")
    .option("--user", "install for your own service manager (systemctl --user); the only kind this command installs")
    .action(async (o: ServiceFlags) => {
      process.exitCode = await run(io, async (m) => {
        if (!o.user) {
          io.err(
            "Only `lilo service install --user` is done for you. For a system unit: `lilo service print --systemd | sudo tee /etc/systemd/system/lilo.service`, then `sudo systemctl daemon-reload && sudo systemctl enable --now lilo`.",
          );
          return 2;
        }
        return m.installUserUnit(io);
      });
    });
}

type ServiceModule = typeof import("../service/install.ts");

/** Loads the service code only when a `service` command runs; a configuration error is one sentence, exit 1. */
async function run(io: CliIO, body: (m: ServiceModule) => Promise<number>): Promise<number> {
  const [m, { ConfigError }] = await Promise.all([import("../service/install.ts"), import("../../core/index.ts")]);
  try {
    return await body(m);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}
