/**
 * The setup's online checks: a Telegram token with getMe, the user's
 * Telegram id from the first message they send the bot, a Matrix token with
 * whoami. Each answer is read with zod; a failure is one sentence to show.
 */
import { z } from "zod";
import { describeError } from "../../core/index.ts";

const TELEGRAM = "https://api.telegram.org";

/** A token check failed; `reason` picks the sentence the setup says in its language, the message stays for the log. */
export class SetupCheckError extends Error {
  constructor(
    readonly reason: "unreachable" | "refused" | "unexpected",
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "SetupCheckError";
  }
}

/** Every Bot API answer: ok with a result, or a refusal with its description. */
const botAnswer = z.object({ ok: z.boolean(), result: z.unknown().optional(), description: z.string().optional() });

async function telegramCall<T extends z.ZodType>(apiRoot: string | undefined, token: string, method: string, params: object, result: T): Promise<z.infer<T>> {
  const url = `${(apiRoot ?? TELEGRAM).replace(/\/+$/, "")}/bot${token}/${method}`;
  let body: unknown;
  try {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(params) });
    body = await res.json();
  } catch (err) {
    throw new SetupCheckError("unreachable", `Telegram could not be reached: ${describeError((err as { cause?: unknown }).cause ?? err)}`, { cause: err });
  }
  const answer = botAnswer.safeParse(body);
  if (!answer.success) throw new SetupCheckError("unexpected", "Telegram answered with something unexpected", { cause: answer.error });
  if (!answer.data.ok) throw new SetupCheckError("refused", `Telegram refused the token (${answer.data.description ?? "no reason given"})`);
  const parsed = result.safeParse(answer.data.result);
  if (!parsed.success) throw new SetupCheckError("unexpected", `Telegram's ${method} answer has an unexpected shape`, { cause: parsed.error });
  return parsed.data as z.infer<T>;
}

/** The bot's @username, when Telegram accepts the token (getMe). */
export async function telegramBotName(apiRoot: string | undefined, token: string): Promise<string> {
  const me = await telegramCall(apiRoot, token, "getMe", {}, z.object({ username: z.string() }));
  return me.username;
}

const updates = z.array(
  z.object({
    update_id: z.number(),
    message: z.object({ chat: z.object({ type: z.string() }), from: z.object({ id: z.number(), first_name: z.string() }).optional() }).optional(),
  }),
);

/**
 * Waits (long polling) for the first private message to the bot and returns
 * its sender; confirms the updates read, so the bot does not answer that
 * message later. Undefined after `waitMs`.
 */
export async function telegramFirstSender(apiRoot: string | undefined, token: string, waitMs: number): Promise<{ id: number; name: string } | undefined> {
  const until = Date.now() + waitMs;
  let offset = 0;
  while (Date.now() < until) {
    const timeout = Math.max(1, Math.min(25, Math.round((until - Date.now()) / 1000)));
    const batch = await telegramCall(apiRoot, token, "getUpdates", { offset, timeout, allowed_updates: ["message"] }, updates);
    for (const u of batch) {
      offset = u.update_id + 1;
      const from = u.message?.chat.type === "private" ? u.message.from : undefined;
      if (from) {
        await telegramCall(apiRoot, token, "getUpdates", { offset, timeout: 0 }, updates);
        return { id: from.id, name: from.first_name };
      }
    }
  }
  return undefined;
}

/** The Matrix user id the access token belongs to (whoami). */
export async function matrixWhoami(homeserver: string, token: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${homeserver.replace(/\/+$/, "")}/_matrix/client/v3/account/whoami`, { headers: { authorization: `Bearer ${token}` } });
  } catch (err) {
    throw new SetupCheckError("unreachable", `the homeserver could not be reached: ${describeError((err as { cause?: unknown }).cause ?? err)}`, {
      cause: err,
    });
  }
  if (res.status === 401 || res.status === 403) throw new SetupCheckError("refused", `the homeserver refused the token (HTTP ${res.status})`);
  const parsed = z.object({ user_id: z.string() }).safeParse(await res.json().catch(() => undefined));
  if (!res.ok || !parsed.success) throw new SetupCheckError("unexpected", `the homeserver answered HTTP ${res.status} without a user id`);
  return parsed.data.user_id;
}
