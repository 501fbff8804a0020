/**
 * The SQLite stores of one Lilo, each opened once on the one database:
 * SQLite is the truth, everything else (indexes, caches) is derived from it.
 */
import type { Db } from "../../foundation/store/db.ts";
import { ChatLog } from "../../foundation/store/chat-log.ts";
import { ChatHistory } from "../../foundation/store/chat-history.ts";
import { ProfileStore } from "../../foundation/store/profile.ts";
import { ShortTermStore } from "../../foundation/store/short-term.ts";
import { RulesStore } from "../../foundation/store/rules.ts";
import { TopicsStore } from "../../foundation/store/topics.ts";
import { SuggestionsStore } from "../../foundation/store/suggestions.ts";
import { SettingsStore } from "../../foundation/store/settings.ts";
import { ModelProblems } from "../../foundation/store/model-problems.ts";
import { InboxStore } from "../../foundation/store/inbox.ts";
import { JobsStore } from "../../foundation/store/jobs.ts";
import { WebTokensStore } from "../../foundation/store/web-tokens.ts";
import { HistoryImports } from "../../foundation/store/history-imports.ts";
import { RemindersStore } from "../../foundation/store/reminders.ts";
import { DeviceKeysStore } from "../../foundation/store/device-keys.ts";
import { AnalysesStore } from "../../foundation/store/analyses.ts";

/** The stores the turn, the features and the use cases read and write. */
export interface Stores {
  chatLog: ChatLog;
  history: ChatHistory;
  profile: ProfileStore;
  shortTerm: ShortTermStore;
  rules: RulesStore;
  topics: TopicsStore;
  suggestions: SuggestionsStore;
  settings: SettingsStore;
  problems: ModelProblems;
  /** User messages as an inbox (reply state) and answers' delivery state. */
  inbox: InboxStore;
  /** The after-reply jobs recorded with each answer. */
  jobs: JobsStore;
  /** Login links and sessions of Lilo's pages. */
  webTokens: WebTokensStore;
  /** Chat histories brought along, and which messages each brought. */
  historyImports: HistoryImports;
  /** Reminders the person asked for. */
  reminders: RemindersStore;
  /** The key stores of end-to-end encryption devices. */
  deviceKeys: DeviceKeysStore;
  /** Saved analyses of the outside view. */
  analyses: AnalysesStore;
}

/** Opens every store on `db`. */
export function openStores(db: Db): Stores {
  return {
    chatLog: new ChatLog(db),
    history: new ChatHistory(db),
    profile: new ProfileStore(db),
    shortTerm: new ShortTermStore(db),
    rules: new RulesStore(db),
    topics: new TopicsStore(db),
    suggestions: new SuggestionsStore(db),
    settings: new SettingsStore(db),
    problems: new ModelProblems(db),
    inbox: new InboxStore(db),
    jobs: new JobsStore(db),
    webTokens: new WebTokensStore(db),
    historyImports: new HistoryImports(db),
    reminders: new RemindersStore(db),
    deviceKeys: new DeviceKeysStore(db),
    analyses: new AnalysesStore(db),
  };
}
