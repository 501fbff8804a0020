import { optionalText as opt, configLeaf as s, optionalUrl as url, configFlag as flag, configSection, sectionOf } from "../../core/internal.ts";
import { type LiloConfig } from "../../core/index.ts";
import { z } from "zod";
import { parseAllowList } from "../shared/allow-list.ts";

/**
 * Matrix's variables: a section of the configuration table (core/foundation/config/section.ts)
 * that app.ts and the CLI pass to loadConfig (adapters/config.ts). Read it with `matrixConfig`.
 */
export const MATRIX_SECTION = configSection({
  key: "matrix",
  groups: {
    matrix: {
      title: "Matrix",
      outro: [
        "The bot joins a room only when an allowed user invites it; the sync token and its room/question",
        "state live in $LILO_DATA_DIR/matrix-bot.json, the encryption keys of its device in Lilo's database",
        "(in every `lilo backup`; a lost key store needs a new access token).",
      ],
    },
  },
  schema: z.object({
    homeserverUrl: s(url(), {
      env: "MATRIX_HOMESERVER_URL",
      doc: "the homeserver of the bot's account",
      group: "matrix",
      example: "https://matrix.example.org",
    }),
    accessToken: s(opt(), { env: "MATRIX_ACCESS_TOKEN", doc: "the bot account's access token", group: "matrix", example: "syt_...", secret: true }),
    allowedUsers: s(z.string().default(""), {
      env: "MATRIX_ALLOWED_USERS",
      doc: 'Matrix user id = Lilo user id; without "=..." the id is matrix:<id>',
      group: "matrix",
      example: "@you:example.org=owner",
    }),
    encryption: s(flag(true), {
      env: "MATRIX_ENCRYPTION",
      doc: "end-to-end encryption: Lilo's device reads and writes encrypted rooms (Element's default for direct messages)",
      group: "matrix",
    }),
    maxMessageChars: s(z.coerce.number().int().min(100).max(60_000).default(16_000), {
      env: "MATRIX_MAX_MESSAGE_CHARS",
      doc: "longer answers are split into several messages",
      group: "matrix",
    }),
  }),
  derive: (raw, envOf) => ({ ...raw, allowedUsers: parseAllowList(envOf(["allowedUsers"]), raw.allowedUsers, "matrix") }),
});

/** The Matrix settings: homeserver, access token, allowlist (Matrix user id → Lilo user id), message size. */
export type MatrixConfig = ReturnType<typeof MATRIX_SECTION.derive>;

/** Matrix's section of a configuration loaded with it. */
export const matrixConfig = (config: LiloConfig): MatrixConfig => sectionOf(MATRIX_SECTION, config);
