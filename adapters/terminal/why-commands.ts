import type { Lilo, Question } from "../../core/index.ts";
import { verdictText, whyText } from "../shared/why-texts.ts";
import { forgetCommand } from "../shared/forget-command.ts";

const COMMAND = /^\/(why|wrong|outdated|forget)(?:\s+([\s\S]*))?$/i;

/**
 * /why, /wrong N12, /outdated N12 and /forget <words|N12|12> in the terminal
 * chat, exactly as on Telegram: /wrong asks what is wrong and the
 * next line is judged; forgetting lists what it found and asks; the typed
 * "ja"/"yes" (or "nein"/"no") is the next chat line, which the core's open
 * question takes. Returns false for any other line.
 */
export async function terminalWhyCommand(lilo: Lilo, userId: string, line: string, say: (text: string) => void): Promise<boolean> {
  const m = COMMAND.exec(line.trim());
  if (!m) return false;
  const language = lilo.config.persona.language;
  const name = m[1]!.toLowerCase();
  const arg = (m[2] ?? "").trim();
  if (name === "why") say(whyText(language, lilo.why.why(userId), true));
  else if (name === "wrong" || name === "outdated") {
    const outcome = await lilo.why.verdict(userId, arg, name);
    // "stimmt nicht" asks what is wrong: the next line is the reply the judge reads (or a typed choice).
    say(outcome?.question ? asked(outcome.question) : verdictText(language, outcome));
  } else {
    const r = await forgetCommand(lilo, userId, arg);
    if (r.kind === "say") say(r.text);
    else if (r.kind === "ask") say(asked(r.question));
    else {
      const gone = await lilo.memory.forget(userId, "notes", r.id);
      say(gone ? `🗑 ${gone.text}` : verdictText(language, undefined));
    }
  }
  return true;
}

/** A question with its typed choices. */
const asked = (q: Question) => `${q.text}\n  → ${q.choices.map((c) => c.label).join(" / ")}`;
