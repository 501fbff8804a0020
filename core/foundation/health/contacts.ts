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
/** A model's contact is named "model provider:model" (see contact-model.ts). */
const MODEL = "model ";
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
    /**
     * Whether a model ("provider:model") is in use now. A model switched away
     * from keeps its record for when it comes back, but its last failure no
     * longer shows: it says nothing about the model that answers now.
     */
    private readonly modelInUse: (model: string) => boolean = () => true,
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

  /** Every adapter contacted so far, and every model in use that was, by name. */
  list(): ContactStatus[] {
    return this.settings
      .list(PREFIX)
      .filter(({ key }) => !this.outOfUse(key))
      .map(({ key, value }) => ({ name: key.slice(PREFIX.length), ...(JSON.parse(value) as Omit<ContactStatus, "name">) }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A settings key that holds the record of a model no longer in use (`lilo settings` leaves it out too). */
  outOfUse(key: string): boolean {
    const model = key.startsWith(`${PREFIX}${MODEL}`) ? key.slice(PREFIX.length + MODEL.length) : undefined;
    return model !== undefined && !this.modelInUse(model);
  }

  private write(name: string, change: Omit<ContactStatus, "name">): void {
    const key = `${PREFIX}${name}`;
    const old = this.settings.get(key);
    const merged = { ...(old ? (JSON.parse(old) as Omit<ContactStatus, "name">) : {}), ...change };
    this.settings.set(key, JSON.stringify(merged), this.clock.now().toISOString());
  }
}
