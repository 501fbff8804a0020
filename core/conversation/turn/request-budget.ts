import type { ChatMessage, ChatRequest } from "../../foundation/ports/chat-model.ts";
import { BUDGET_TEXTS } from "../prompts/budget.ts";

/**
 * Budgets for everything that goes to the chat model, so one huge message
 * (the user's or Lilo's own) can never break the turns after it: a cap on
 * the incoming message, a cap on each message replayed from the history,
 * and a budget for the whole request in estimated tokens.
 */
export interface RequestBudget {
  /** An incoming message longer than this reaches the model shortened (it is stored whole). */
  maxInputChars: number;
  /** Each earlier message replayed on the cheat sheet is shortened to this. */
  historyMessageChars: number;
  /** Estimated tokens of the whole request (system + turns); older turns go first when it is over. */
  requestTokens: number;
}

type Language = keyof typeof BUDGET_TEXTS;

/**
 * Estimated tokens of a text: one per three characters. Real tokenizers give
 * about four per token for English prose and fewer for German, code and
 * emoji; erring high keeps the request under the model's limit.
 */
function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Characters per estimated token, for every budget in tokens (request, memory part of the sheet). */
export const CHARS_PER_TOKEN = 3;

/** Estimated tokens of a whole request: system part and every turn. */
export function requestTokens(request: Pick<ChatRequest, "system" | "messages">): number {
  return estimateTokens(request.system) + request.messages.reduce((n, m) => n + estimateTokens(m.content) + 4, 0);
}

/**
 * The text cut to `maxChars` with a visible note of how much was left out;
 * unchanged when it fits. Never cuts an emoji (surrogate pair) in half.
 */
export function shortenText(text: string, maxChars: number, language: Language): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--; // a high surrogate without its partner
  return `${text.slice(0, end)}\n${BUDGET_TEXTS[language].cut(text.length - end)}`;
}

/** The incoming message as the model reads it, and the note for the user when it was shortened. */
export function budgetInput(text: string, budget: RequestBudget, language: Language): { text: string; notice?: string } {
  if (text.length <= budget.maxInputChars) return { text };
  return { text: shortenText(text, budget.maxInputChars, language), notice: BUDGET_TEXTS[language].inputShortened(text.length, budget.maxInputChars) };
}

/** Earlier turns, each shortened to the per-message cap. */
function capHistory(turns: ChatMessage[], budget: RequestBudget, language: Language): ChatMessage[] {
  return turns.map((t) => ({ ...t, content: shortenText(t.content, budget.historyMessageChars, language) }));
}

/**
 * Fits a request into the token budget: the oldest turns go first (in
 * user/assistant pairs, so the turns still start with the user), down to
 * the new message alone; if even that is too long, the new message is
 * shortened to what is left. Returns how many turns were dropped and by
 * how many tokens the request is still over (the system part alone too big).
 */
export function fitRequest(request: ChatRequest, budget: RequestBudget, language: Language): { request: ChatRequest; dropped: number; overBy: number } {
  const messages = [...request.messages];
  let dropped = 0;
  while (messages.length > 1 && requestTokens({ system: request.system, messages }) > budget.requestTokens) {
    messages.shift();
    dropped++;
    // Providers want the turns to start with the user.
    while (messages.length > 1 && messages[0]!.role === "assistant") {
      messages.shift();
      dropped++;
    }
  }
  const over = requestTokens({ system: request.system, messages }) - budget.requestTokens;
  const last = messages.at(-1);
  if (over > 0 && last) {
    // Three characters per estimated token, plus room for the note itself.
    const keep = Math.max(200, last.content.length - over * CHARS_PER_TOKEN - 100);
    messages[messages.length - 1] = { ...last, content: shortenText(last.content, keep, language) };
  }
  // Still over: the system part alone (persona, memory blocks) is too large for this budget.
  const overBy = Math.max(0, requestTokens({ system: request.system, messages }) - budget.requestTokens);
  return { request: { ...request, messages }, dropped, overBy };
}

/**
 * The whole budget applied to an assembled request: every earlier turn
 * capped, then the request fitted into the token budget.
 */
export function applyBudget(request: ChatRequest, budget: RequestBudget, language: Language): ReturnType<typeof fitRequest> {
  const earlier = request.messages.slice(0, -1);
  const capped = { ...request, messages: [...capHistory(earlier, budget, language), ...request.messages.slice(-1)] };
  return fitRequest(capped, budget, language);
}
