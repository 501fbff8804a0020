import { ConfigError } from "../../core/index.ts";

/**
 * An adapter's allowlist variable, "123,456=anna" → platform id → Lilo user id.
 * Without "=user" the user id is "<platform>:<id>"; with it, several
 * platforms can share one memory. Shared by the Telegram and Matrix sections.
 */
export function parseAllowList(variable: string, raw: string, platform: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const idx = part.lastIndexOf("=");
    if (idx === 0 || idx === part.length - 1) throw new ConfigError(`${variable}: "${part}" is not id or id=user`);
    const id = idx > 0 ? part.slice(0, idx).trim() : part;
    out[id] = idx > 0 ? part.slice(idx + 1).trim() : `${platform}:${id}`;
  }
  return out;
}
