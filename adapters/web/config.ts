import { configLeaf as s, optionalUrl as url, configSection, sectionOf } from "../../core/internal.ts";
import { type LiloConfig } from "../../core/index.ts";
import { z } from "zod";
import { readPort } from "./port.ts";

/**
 * The configuration rule of a port where 0 has a meaning of its own (LILO_WEB_PORT: 0 = not with the bot).
 * A number (the default, a value a program passes) is read like its text; text must be decimal digits.
 */
const portRule = (def: number) =>
  z
    .union([z.number(), z.string()])
    .default(def)
    .transform((v, ctx) => {
      const r = readPort(String(v), true);
      if ("port" in r) return r.port;
      ctx.issues.push({ code: "custom", input: v, message: r.problem });
      return z.NEVER;
    });

/**
 * The variables of Lilo's pages: a section of the configuration table that app.ts and the CLI pass to
 * loadConfig (adapters/config.ts). Read it with `webConfig`.
 */
export const WEB_SECTION = configSection({
  key: "web",
  groups: { web: { title: "Lilo's pages (local web dashboard)" } },
  schema: z.object({
    port: s(portRule(0), {
      env: "LILO_WEB_PORT",
      doc: "0: the bot serves no pages (run `lilo web`); a port: the bot serves them there too, and /web in Telegram sends a login link",
      group: "web",
    }),
    host: s(z.string().trim().min(1).default("127.0.0.1"), {
      env: "LILO_WEB_HOST",
      doc: "address the bot's pages listen on (set here on purpose); `lilo web` listens on anything but loopback only with --host",
      group: "web",
    }),
    publicUrl: s(url(), {
      env: "LILO_WEB_URL",
      doc: "the address login links point to when the pages are behind a reverse proxy (default http://<host>:<port>)",
      group: "web",
    }),
    linkMinutes: s(z.coerce.number().int().positive().max(1440).default(10), {
      env: "LILO_WEB_LINK_MINUTES",
      doc: "how long a login link is valid; each link opens one session once",
      group: "web",
    }),
    sessionHours: s(z.coerce.number().int().positive().max(720).default(12), {
      env: "LILO_WEB_SESSION_HOURS",
      doc: "how long a browser stays logged in",
      group: "web",
    }),
  }),
});

/** The pages' settings: port (0 = not with the bot), host, public URL, link and session lifetimes. */
export type WebConfig = z.infer<typeof WEB_SECTION.schema>;

/** The pages' section of a configuration loaded with it. */
export const webConfig = (config: LiloConfig): WebConfig => sectionOf(WEB_SECTION, config);
