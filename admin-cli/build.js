// Compiles the `lilo` CLI to JavaScript (dist/cli/) so it starts without tsx.
// Run by `npm install` / `npm ci` (the `prepare` script) and by bin.js when the
// sources changed since the last build. Plain JavaScript: it must run before
// anything is compiled.
import { build } from "esbuild";
import { readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Where the compiled CLI lives (git-ignored). */
export const OUT_DIR = join(root, "dist", "cli");
/** Which sources the build read: bin.js rebuilds when any of them is newer. */
export const INPUTS_FILE = join(OUT_DIR, "inputs.json");

/** esbuild's options for the CLI bundle written to `outdir` (test/cli/startup-bundle.test.ts builds with them too). */
export function cliBuildOptions(outdir) {
  return {
    absWorkingDir: root,
    entryPoints: ["admin-cli/lilo.ts"],
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    // Packages stay in node_modules: native addons and their own lazy loading keep working.
    packages: "external",
    metafile: true,
    logLevel: "warning",
    plugins: [coreDoorNamesOnly],
  };
}

/**
 * Bundles admin-cli/lilo.ts with code splitting: a command's code loads only
 * when it runs. Chunk names carry a content hash, so a `lilo` still running
 * the previous build keeps finding its chunks; `clean` (the install) removes
 * the ones no longer used.
 */
export async function buildCli({ clean = false } = {}) {
  const result = await build(cliBuildOptions(OUT_DIR));
  // A core-door module is made from its importer, which is an input itself.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((p) => !p.startsWith("core-door:"))
    .map((p) => relative(root, join(root, p)));
  writeFileSync(INPUTS_FILE, JSON.stringify(inputs));
  if (clean) {
    const used = new Set(Object.keys(result.metafile.outputs).map((p) => join(root, p)));
    for (const f of readdirSync(OUT_DIR)) if (f.endsWith(".js") && !used.has(join(OUT_DIR, f))) rmSync(join(OUT_DIR, f));
  }
}

/** The core's two entries: core/index.ts (the library's) and core/internal.ts (what only Lilo's outer layers use). */
const CORE_DOORS = [join(root, "core", "index.ts"), join(root, "core", "internal.ts")];

/**
 * The CLI imports the core only through its two entries, but a static import
 * of one would make esbuild's code splitting load every file behind it at
 * start-up (chunks follow the import graph, not what is used): `lilo --help`
 * would pay for createLilo. So each static import of core/index.ts or
 * core/internal.ts gets a module of its own that re-exports just the names
 * that file imports, from the files the entry takes them from; the same
 * files, so a value (ANY_USER, an error class) is one and the same for the
 * CLI and the core it opens with a dynamic `import("../core/index.ts")`,
 * which stays the whole entry.
 */
const coreDoorNamesOnly = {
  name: "core-door-names-only",
  setup(b) {
    b.onResolve({ filter: /core\/(index|internal)\.ts$/ }, (args) => {
      const door = resolve(args.resolveDir, args.path);
      if (args.kind !== "import-statement" || !CORE_DOORS.includes(door)) return undefined;
      // One module per importer and entry: a file may import from both.
      return { path: `${args.importer}|${door}`, namespace: "core-door" };
    });
    b.onLoad({ filter: /.*/, namespace: "core-door" }, (args) => {
      const [importer, door] = args.path.split("|");
      const sources = doorSources(door);
      const lines = valueImports(readFileSync(importer, "utf8"), door).map((name) => {
        const from = sources.get(name);
        if (!from) throw new Error(`${relative(root, importer)} imports "${name}", which ${relative(root, door)} does not export`);
        return `export { ${from.local === name ? name : `${from.local} as ${name}`} } from ${JSON.stringify(from.file)};`;
      });
      return { contents: lines.join("\n"), loader: "ts", resolveDir: dirname(door) };
    });
  },
};

/** Each name an entry of the core exports, with the file (relative to core/) it comes from and its name there. */
function doorSources(door) {
  const sources = new Map();
  for (const m of readFileSync(door, "utf8").matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s+from\s+"([^"]+)"/gm)) {
    for (const spec of m[1].split(",")) {
      const [local, exported = local] = spec
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/);
      if (local) sources.set(exported, { local, file: m[2] });
    }
  }
  return sources;
}

/** The value names a file imports from one entry of the core (type-only imports vanish in the bundle anyway). */
function valueImports(source, door) {
  const entry = door.endsWith("internal.ts") ? "internal" : "index";
  const names = [];
  for (const m of source.matchAll(new RegExp(`^import\\s+(type\\s+)?\\{([^}]*)\\}\\s+from\\s+"[./]*core/${entry}\\.ts"`, "gm"))) {
    if (m[1]) continue;
    for (const spec of m[2].split(",")) {
      const name = spec.trim().split(/\s+as\s+/)[0];
      if (name && !name.startsWith("type ")) names.push(name);
    }
  }
  return names;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildCli({ clean: true });
