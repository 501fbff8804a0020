import type { Clock } from "../ports/clock.ts";
import type { SettingsStore } from "../store/settings.ts";
import { localDay } from "../util/time.ts";

/** Per user: the local day on which the person was last told that the budget is spent. */
const TOLD_KEY = "budget.told_on";

/**
 * Who was told today that the budget is spent. The push warning and the chat
 * share it, so the person hears it once a day, from whichever comes first.
 * Claiming is synchronous (check and mark in one step), so a push and an
 * answer finishing together cannot both say it.
 */
export class BudgetTold {
  constructor(
    private readonly settings: Pick<SettingsStore, "get" | "set" | "delete">,
    private readonly clock: Clock,
    private readonly timeZone: string,
  ) {}

  /** Was the person told today? */
  toldToday(userId: string): boolean {
    return this.settings.get(TOLD_KEY, userId) === this.today();
  }

  /** Marks the person told today; false when they already were (then nothing is to be said). */
  claim(userId: string): boolean {
    if (this.toldToday(userId)) return false;
    this.settings.set(TOLD_KEY, this.today(), this.clock.now().toISOString(), userId);
    return true;
  }

  /** Undoes a claim whose message did not go out (a push that was not delivered), so the chat still says it. */
  release(userId: string): void {
    if (this.toldToday(userId)) this.settings.delete(TOLD_KEY, userId);
  }

  private today(): string {
    return localDay(this.clock.now(), this.timeZone);
  }
}
