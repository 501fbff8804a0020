import { describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { promisify } from "node:util";
import { sendJson, startFakeServer } from "../../fakes/http-server.ts";

/**
 * The Dockerfile, .dockerignore and compose.yaml, read as files: what an
 * image of Lilo must have. (Building the image needs a registry to pull
 * node:22-bookworm-slim from; these checks run everywhere.)
 */

/** One Dockerfile instruction: its keyword and its arguments, continuation lines joined. */
interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile's stages, each the list of its instructions (the first one its FROM). */
function dockerStages(text: string): Instruction[][] {
  const joined = text
    .split("\n")
    .filter((l) => !/^\s*#/.test(l))
    .join("\n")
    .replace(/\\\n/g, " ");
  const stages: Instruction[][] = [];
  for (const line of joined.split("\n")) {
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const ins = { op: m[1]!.toUpperCase(), args: m[2]!.trim().replace(/\s+/g, " ") };
    if (ins.op === "FROM") stages.push([ins]);
    else stages.at(-1)?.push(ins);
  }
  return stages;
}

/** The lines of one top-level service of compose.yaml (indented under `  <name>:`). */
function composeService(text: string, name: string): string {
  const lines = text.split("\n");
  const start = lines.findIndex((l) => l === `  ${name}:`);
  if (start < 0) return "";
  const end = lines.findIndex((l, i) => i > start && /^ {0,2}\S/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join("\n");
}

const dockerfile = readFileSync("Dockerfile", "utf8");
const stages = dockerStages(dockerfile);
const runtime = stages.at(-1) ?? [];
const all = (op: string, stage: Instruction[] = runtime) => stage.filter((i) => i.op === op).map((i) => i.args);
const env = Object.fromEntries(all("ENV").flatMap((a) => [...a.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])));

describe("the container files", () => {
  it("build on a slim image of the Node major that package.json's engines require, in every stage", () => {
    const major = /(\d+)/.exec(String((JSON.parse(readFileSync("package.json", "utf8")) as { engines: { node: string } }).engines.node))![1];
    expect(stages.length).toBeGreaterThan(0);
    for (const s of stages) expect(s[0]!.args).toMatch(new RegExp(`^node:${major}-[a-z]*-?slim\\b`));
  });

  it("install production dependencies with npm ci --omit=dev, which also builds the CLI", () => {
    const runs = stages.flatMap((s) => all("RUN", s));
    expect(runs.some((r) => /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string>; dependencies: Record<string, string> };
    // The CLI is built by the `prepare` script, which npm ci runs; what runs main.ts must survive --omit=dev.
    expect(pkg.scripts.prepare).toContain("admin-cli/build.js");
    expect(pkg.dependencies).toHaveProperty("tsx");
    expect(pkg.dependencies).toHaveProperty("esbuild");
  });

  it("runs npm start's own entry as a user other than root", () => {
    const users = all("USER");
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    const cmd = JSON.parse(all("CMD").at(-1) ?? "[]") as string[];
    const start = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe("tsx main.ts");
    expect(cmd).toEqual(["node", "--import", "tsx", "main.ts"]);
  });

  it("keeps the data in a volume at LILO_DATA_DIR, owned by the user Lilo runs as", () => {
    expect(env.LILO_DATA_DIR).toBe("/data");
    expect(all("VOLUME").join(" ")).toContain('"/data"');
    expect(all("RUN").join(" ")).toContain(`chown ${all("USER").at(-1)}:`);
  });

  it("checks health on /healthz of the port it sets", () => {
    expect(Number(env.LILO_HEALTH_PORT)).toBeGreaterThan(0);
    const hc = all("HEALTHCHECK");
    expect(hc).toHaveLength(1);
    expect(hc[0]).toContain("/healthz");
  });

  it("has a health check command that passes on 200 and fails on 503", async () => {
    const cmd = JSON.parse(/CMD (\[.*\])$/.exec(all("HEALTHCHECK")[0]!)![1]!) as string[];
    let status = 200;
    const server = await startFakeServer((_req, res) => sendJson(res, status, { ok: status === 200 }));
    try {
      const port = new URL(server.url).port;
      const run = () =>
        promisify(execFile)(process.execPath, cmd.slice(1), { env: { LILO_HEALTH_PORT: port } }).then(
          () => 0,
          (e: { code?: number }) => e.code ?? -1,
        );
      expect(cmd[0]).toBe("node");
      expect(await run()).toBe(0);
      status = 503;
      expect(await run()).toBe(1);
      expect(server.requests.map((r) => r.path)).toEqual(["/healthz", "/healthz"]);
    } finally {
      await server.close();
    }
  });

  it("leave secrets, data and installed modules out of the build context, and keep the files npm ci needs", () => {
    const ignored = readFileSync(".dockerignore", "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith("#"));
    for (const p of [".env", "data", "node_modules", "dist"]) expect(ignored).toContain(p);
    // The package overrides point at folders in the repository: they must be in the context.
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { overrides: Record<string, string> };
    for (const spec of Object.values(pkg.overrides)) {
      const dir = spec.replace(/^file:\.\//, "");
      expect(existsSync(dir), dir).toBe(true);
      expect(
        ignored.some((p) => dir === p || dir.startsWith(`${p}/`)),
        dir,
      ).toBe(false);
    }
  });

  it("compose runs Lilo with her data volume and a stop time above the grace, and Qdrant only under its profile", () => {
    const compose = readFileSync("compose.yaml", "utf8");
    const lilo = composeService(compose, "lilo");
    expect(lilo).toMatch(/^ {4}build: \.$/m);
    expect(lilo).toMatch(/^ {6}- lilo-data:\/data$/m);
    expect(lilo).toMatch(/^ {4}init: true$/m);
    expect(Number(/stop_grace_period: (\d+)s/.exec(lilo)?.[1])).toBeGreaterThan(10);
    expect(lilo).not.toMatch(/profiles:/);
    const qdrant = composeService(compose, "qdrant");
    expect(qdrant).toMatch(/^ {4}image: qdrant\/qdrant:v\d+\.\d+\.\d+$/m);
    expect(qdrant).toMatch(/^ {4}profiles: \["qdrant"\]$/m);
    expect(compose).toMatch(/^volumes:\n {2}lilo-data:\n {2}qdrant-data:$/m);
  });
});
