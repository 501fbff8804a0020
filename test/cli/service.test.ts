import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../helpers/cli.ts";

const SYSTEMD_ANALYZE = "/usr/bin/systemd-analyze";

/** `lilo service` needs no database: nothing may open one. */
const noLilo = () => {
  throw new Error("lilo service must not open Lilo");
};

/** What `systemd-analyze verify` says about a unit text (in system mode: the user manager needs a session). */
function verify(dir: string, unit: string): { status: number | null; output: string } {
  const file = join(dir, "lilo.service");
  writeFileSync(file, unit);
  const r = spawnSync(SYSTEMD_ANALYZE, ["verify", file], { encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}${r.stderr}${r.error?.message ?? ""}` };
}

describe("lilo service", () => {
  let dir: string;
  const saved: Record<string, string | undefined> = {};
  const setEnv = (vars: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(vars)) {
      if (!(k in saved)) saved[k] = process.env[k];
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "lilo-service-"));
    mkdirSync(join(dir, "home"));
    setEnv({ LILO_HOME: join(dir, "home"), LILO_DATA_DIR: undefined, LILO_DATA_KEY_FILE: undefined, XDG_CONFIG_HOME: join(dir, "config") });
  });
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      delete saved[k];
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints a system unit for this install that systemd-analyze verify accepts", async () => {
    const res = await runCli(noLilo, ["service", "print", "--systemd"]);
    expect(res.code, res.err).toBe(0);
    for (const part of ["[Unit]", "[Service]", "[Install]", "Restart=on-failure", "NoNewPrivileges=yes", "ProtectSystem=strict", "PrivateTmp=yes"])
      expect(res.out).toContain(part);
    expect(res.out).toMatch(new RegExp(`^ExecStart=${process.execPath} --import \\S+/tsx/dist/loader\\.mjs \\S+/main\\.ts$`, "m"));
    expect(res.out).toContain(`WorkingDirectory=${join(dir, "home")}\n`);
    expect(res.out).toContain(`ReadWritePaths=${join(dir, "home")}\n`);
    expect(res.out).toContain("WantedBy=multi-user.target");
    expect(res.out).toMatch(/^User=\S+$/m);
    const v = verify(dir, res.out);
    expect(v.status, v.output).toBe(0);
  });

  it("prints a user unit (--user) that systemd-analyze verify accepts, wanted by the user's session", async () => {
    const res = await runCli(noLilo, ["service", "print", "--systemd", "--user"]);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain("WantedBy=default.target");
    expect(res.out).not.toMatch(/^User=/m);
    const v = verify(dir, res.out);
    expect(v.status, v.output).toBe(0);
  });

  it("loads the data key named by LILO_DATA_KEY_FILE as a systemd credential, and a data folder outside the home is writable", async () => {
    setEnv({ LILO_DATA_KEY_FILE: "/etc/lilo/data-key", LILO_DATA_DIR: join(dir, "elsewhere") });
    const res = await runCli(noLilo, ["service", "print", "--systemd"]);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toContain("LoadCredential=lilo-data-key:/etc/lilo/data-key\n");
    expect(res.out).toContain("Environment=LILO_DATA_KEY_FILE=%d/lilo-data-key\n");
    expect(res.out).toContain(`ReadWritePaths=${join(dir, "home")} -${join(dir, "elsewhere")}\n`);
    const v = verify(dir, res.out);
    expect(v.status, v.output).toBe(0);
  });

  it("runs a system unit as the owner of her home, and warns on stderr when that is root", async () => {
    // "/" belongs to root on every Linux: the case of a home set up as root.
    setEnv({ LILO_HOME: "/" });
    const res = await runCli(noLilo, ["service", "print", "--systemd"]);
    expect(res.code, res.err).toBe(0);
    expect(res.out).toMatch(/^User=root\nGroup=root$/m);
    expect(res.err).toMatch(/^The unit runs Lilo as root, because root owns her home/);
    expect(res.out).not.toContain("runs Lilo as root");
  });

  it("asks which kind of unit when --systemd is missing", async () => {
    const res = await runCli(noLilo, ["service", "print"]);
    expect(res.code).toBe(2);
    expect(res.err).toContain("lilo service print --systemd");
  });

  describe("install --user", () => {
    /** A `systemctl` on PATH that records its arguments. */
    const fakeSystemctl = (exit = 0) => {
      const bin = join(dir, "bin");
      mkdirSync(bin);
      writeFileSync(join(bin, "systemctl"), `#!/bin/sh\necho "$@" >> "${join(dir, "calls")}"\necho "refused by the fake" >&2\nexit ${exit}\n`);
      chmodSync(join(bin, "systemctl"), 0o755);
      setEnv({ PATH: `${bin}:/usr/bin:/bin` });
    };
    const unitPath = () => join(dir, "config", "systemd", "user", "lilo.service");

    it("writes the user unit, reloads systemd and enables it", async () => {
      fakeSystemctl();
      const res = await runCli(noLilo, ["service", "install", "--user"]);
      expect(res.code, res.err).toBe(0);
      expect(readFileSync(unitPath(), "utf8")).toContain("WantedBy=default.target");
      expect(readFileSync(join(dir, "calls"), "utf8")).toBe("--user daemon-reload\n--user enable lilo.service\n");
      expect(res.out).toContain("systemctl --user start lilo");
      expect(res.out).toContain("journalctl --user -u lilo");
    });

    it("says in a sentence that systemctl is missing and leaves the unit written", async () => {
      setEnv({ PATH: join(dir, "empty-bin") });
      const res = await runCli(noLilo, ["service", "install", "--user"]);
      expect(res.code).toBe(1);
      expect(res.err).toMatch(/^systemctl was not found, so the unit was written but not enabled/);
      expect(existsSync(unitPath())).toBe(true);
    });

    it("names the systemctl call that failed and its reason", async () => {
      fakeSystemctl(1);
      const res = await runCli(noLilo, ["service", "install", "--user"]);
      expect(res.code).toBe(1);
      expect(res.err).toContain("`systemctl --user daemon-reload` failed: refused by the fake.");
    });

    it("refuses a system install and shows the commands for it", async () => {
      const res = await runCli(noLilo, ["service", "install"]);
      expect(res.code).toBe(2);
      expect(res.err).toContain("sudo tee /etc/systemd/system/lilo.service");
    });
  });
});
