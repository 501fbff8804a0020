import type { Clock } from "../foundation/ports/clock.ts";
import type { Rule, RulesStore } from "../foundation/store/rules.ts";

/** Learned behaviour rules (store 9): the yes/no flow adds them, the operator edits them. */
export interface RulesApi {
  list(userId: string, opts?: { onlyEnabled?: boolean }): Rule[];
  get(id: number): Rule | undefined;
  /** Adds a confirmed rule; returns its id. */
  add(userId: string, text: string): number;
  /** False when there is no such rule. */
  setEnabled(id: number, enabled: boolean): boolean;
  edit(id: number, text: string): boolean;
  delete(id: number): boolean;
}

/** Builds the rules use cases; times come from the clock. */
export function rulesApi(rules: RulesStore, clock: Clock): RulesApi {
  const now = () => clock.now().toISOString();
  return {
    list: (userId, opts = {}) => rules.list(userId, opts.onlyEnabled),
    get: (id) => rules.get(id),
    add: (userId, text) => rules.add(userId, text, now()),
    setEnabled: (id, enabled) => rules.setEnabled(id, enabled, now()),
    edit: (id, text) => rules.edit(id, text, now()),
    delete: (id) => rules.delete(id),
  };
}
