// `npm run local:gpu -- cuda|cuda-ext|vulkan`: installs node-llama-cpp's prebuilt
// GPU binaries for Lilo's own model on Linux x64. package.json replaces them
// with an empty stub ("overrides"), because npm would otherwise put ~620 MB of
// CUDA and Vulkan builds into every install, also on the many home servers
// without a GPU; npm refuses to install an overridden package directly, so this
// fetches the same package with npm's own client (`npm pack`, from the npm
// registry) and unpacks it where node-llama-cpp looks for it. `npm ci` puts the
// stub back: run this again after it. Plain JavaScript, no Lilo code.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const VARIANTS = ["cuda", "cuda-ext", "vulkan"];
const variant = process.argv[2];
if (!VARIANTS.includes(variant ?? "")) {
  console.error(`usage: npm run local:gpu -- <${VARIANTS.join("|")}>  (cuda: NVIDIA with CUDA 12/13 drivers; vulkan: AMD, Intel, NVIDIA)`);
  process.exit(2);
}
if (process.platform !== "linux" || process.arch !== "x64") {
  console.error("Only Linux x64 needs this: on macOS (Metal) and Windows npm installs the GPU binaries itself.");
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(root, "node_modules", "node-llama-cpp", "package.json"), "utf8"));
const name = `@node-llama-cpp/linux-x64-${variant}`;
const target = join(root, "node_modules", "@node-llama-cpp", `linux-x64-${variant}`);
const tmp = mkdtempSync(join(tmpdir(), "lilo-gpu-"));
try {
  console.log(`fetching ${name}@${version} from the npm registry …`);
  const tarball = execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", tmp, "--silent"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop();
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync("tar", ["-xzf", join(tmp, tarball), "-C", target, "--strip-components=1"]);
  console.log(`installed into ${target}; LILO_LOCAL_GPU=auto (the default) now uses it when the GPU and its driver are there.`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
