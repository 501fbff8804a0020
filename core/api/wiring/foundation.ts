/**
 * What every other part is built on: this Lilo's own copy of the
 * configuration, the clock, the log, the database (with its page cache and,
 * for the running bot, checkpoints on a worker thread), the runner of
 * background tasks, and the live settings that write into the configuration.
 */
import type { LiloConfig } from "../../foundation/config/config.ts";
import { configSecrets } from "../../foundation/config/secrets.ts";
import type { Clock } from "../../foundation/ports/clock.ts";
import { systemClock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import { silentLogger } from "../../foundation/ports/logger.ts";
import { LiveSettings, ownLiveSections } from "../../foundation/settings/live-settings.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import { describeError } from "../../foundation/errors.ts";
import { BackgroundCheckpoints } from "../../foundation/store/background-checkpoints.ts";
import { openDatabase, setPageCache, type Db } from "../../foundation/store/db.ts";
import { configuredDataKey } from "../../foundation/store/data-key.ts";
import { BackgroundTasks } from "../../foundation/util/background.ts";
import { registerSecrets } from "../../foundation/util/redact.ts";
import type { LiloPorts } from "../lilo-ports.ts";

/** What nearly every part reads. */
export interface Base {
  /** This Lilo's own copy of the configuration: live settings write into it. */
  config: LiloConfig;
  clock: Clock;
  logger: Logger;
  db: Db;
}

/** The base, the background runner, and closing what was opened here. */
export interface Foundation extends Base {
  background: BackgroundTasks;
  /** Stops the checkpoints and closes the database unless it was passed in. */
  close(): Promise<void>;
}

/** Masks every secret of the configuration in logs and errors from now on, and opens the database. */
export function openFoundation(sharedConfig: LiloConfig, ports: Pick<LiloPorts, "clock" | "logger" | "db" | "backgroundCheckpoints">): Foundation {
  // Every secret of the table (the core's and the adapters' sections): masked in all logs and errors from now on.
  registerSecrets(configSecrets(sharedConfig));
  // Live settings write into this Lilo's own copy of the sections they change.
  const config = ownLiveSections(sharedConfig);
  const clock = ports.clock ?? systemClock;
  const logger = ports.logger ?? silentLogger;
  const key = ports.db ? undefined : configuredDataKey(config);
  const db = ports.db ?? openDatabase(config.dbPath, key);
  setPageCache(db, config.memory.sqliteCacheMb);
  const checkpoints = ports.backgroundCheckpoints && !db.memory ? new BackgroundCheckpoints(db, db.name, logger, undefined, key) : undefined;
  return {
    config,
    clock,
    logger,
    db,
    background: new BackgroundTasks(logger),
    close: async () => {
      await checkpoints?.stop();
      if (!ports.db) db.close();
    },
  };
}

/** The settings changed at run time, written into the base's configuration now and on each refresh; a stored value that fails its rule is logged and left out. */
export function liveSettings(base: Base, store: SettingsStore): LiveSettings {
  const { config, clock, logger } = base;
  return new LiveSettings(
    config,
    store,
    () => clock.now().toISOString(),
    (key, err) => logger.error("stored setting ignored: it does not pass its rule; `lilo settings unset` removes it", { key, error: describeError(err) }),
  );
}
