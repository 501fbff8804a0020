import type { Clock } from "../ports/clock.ts";
import type { SettingsStore } from "../store/settings.ts";
import { redactSecrets } from "../util/redact.ts";

/** When Lilo last reached one outside service (a chat platform or a model), and its last failure. */
export interface ContactStatus {
  /** "telegram", "matrix", "model anthropic:claude-…". */
  name: string;
  lastOkAt?: string;
  lastFailureAt?: string;
  /** Why the last failure happened (redacted). */
  lastError?: string;
}

/** Settings keys of contact records start with this. */
const PREFIX = "contact:";
/** A successful contact is written at most this often per service: polling must not mean a write per call. */
const WRITE_EVERY_MS = 60_000;

/**
 * The last successful contact of each adapter and model, kept in SQLite
 * (program state in the settings table), so `lilo status` in another
 * process can show whether Telegram, Matrix or a model were reachable
 * lately. Successes are written at most once a minute per service; a
 * failure and the first success after one are written at once.
 */
export class Contacts {
  private readonly lastWritten = new Map<string, number>();
  private readonly failing = new Set<string>();

  constructor(
    private readonly settings: SettingsStore,
    private readonly clock: Clock,
  ) {}

  /** `name` answered. */
  ok(name: string): void {
    const now = this.clock.now();
    const recovered = this.failing.delete(name);
    if (!recovered && now.getTime() - (this.lastWritten.get(name) ?? -Infinity) < WRITE_EVERY_MS) return;
    this.lastWritten.set(name, now.getTime());
    this.write(name, { lastOkAt: now.toISOString() });
  }

  /** `name` could not be reached or failed; `error` is stored redacted. */
  failed(name: string, error: string): void {
    this.failing.add(name);
    this.write(name, { lastFailureAt: this.clock.now().toISOString(), lastError: redactSecrets(error).slice(0, 300) });
  }

  /** Every service contacted so far, by name. */
  list(): ContactStatus[] {
    return this.settings
      .list(PREFIX)
      .map(({ key, value }) => ({ name: key.slice(PREFIX.length), ...(JSON.parse(value) as Omit<ContactStatus, "name">) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  private write(name: string, change: Omit<ContactStatus, "name">): void {
    const key = `${PREFIX}${name}`;
    const old = this.settings.get(key);
    const merged = { ...(old ? (JSON.parse(old) as Omit<ContactStatus, "name">) : {}), ...change };
    this.settings.set(key, JSON.stringify(merged), this.clock.now().toISOString());
  }
}
