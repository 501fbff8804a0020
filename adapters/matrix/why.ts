import type { MatrixContext, MatrixEventSource } from "./context.ts";
import { sendQuestion } from "./questions.ts";
import { verdictText, whyText } from "../shared/why-texts.ts";
import { forgetCommand } from "../shared/forget-command.ts";

type Command = (ctx: MatrixContext, source: MatrixEventSource, arg: string) => Promise<string | void>;

/**
 * `!why`, `!wrong N12`, `!outdated N12` and `!forget <words|N12|12>` on
 * Matrix. Matrix has no inline buttons: /why lists each memory
 * with its reference, and the three actions are typed. `!wrong` asks what is
 * wrong (the typed reply is judged; 👍 deletes, 👎 keeps); forgetting asks
 * its yes/no as a question (👍/👎 or a typed "ja"/"yes").
 */
export const WHY_COMMANDS: Record<string, Command> = {
  why: async (ctx, s) => whyText(ctx.lilo.config.persona.language, ctx.lilo.why.why(s.userId), true, "!"),
  wrong: async (ctx, s, arg) => {
    const outcome = await ctx.lilo.why.verdict(s.userId, arg, "wrong");
    // Lilo asks what is wrong: the typed reply goes to the judge; 👍 deletes, 👎 keeps.
    if (outcome?.question) return void (await sendQuestion(ctx, s.roomId, s.userId, outcome.question));
    return verdictText(ctx.lilo.config.persona.language, outcome);
  },
  outdated: async (ctx, s, arg) => verdictText(ctx.lilo.config.persona.language, await ctx.lilo.why.verdict(s.userId, arg, "outdated")),
  forget: async (ctx, s, arg) => {
    const r = await forgetCommand(ctx.lilo, s.userId, arg);
    if (r.kind === "say") return r.text;
    if (r.kind === "ask") return void (await sendQuestion(ctx, s.roomId, s.userId, r.question));
    // Only the owner may forget a live note; anyone else's id looks like a missing one (the rule is the core's).
    const gone = await ctx.lilo.memory.forget(s.userId, "notes", r.id);
    return gone ? ctx.texts.forgotten(r.id) : ctx.texts.noSuchNote(r.id);
  },
};
