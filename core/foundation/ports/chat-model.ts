import type { z } from "zod";

/** A picture sent with a user message (never stored: only its caption is). */
export interface ImageInput {
  /** "image/jpeg", "image/png", "image/webp" or "image/gif". */
  mediaType: string;
  /** The bytes, base64-encoded. */
  data: string;
}

/** One message of the conversation sent to a model. */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
  /** Pictures of a user message, for models that accept images. */
  images?: ImageInput[];
  /** Native tool calls the model made in this (assistant) message. */
  toolCalls?: ToolCall[];
  /** Results of those calls, sent back in the next (user) message. */
  toolResults?: ToolResult[];
}

/** A tool the model may call natively (Anthropic tool use, OpenAI function calling). */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** One tool call as the provider reported it; `input` is unvalidated. */
export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
}

/** What a tool call returned, as text. */
export interface ToolResult {
  callId: string;
  content: string;
  isError?: boolean;
}

/**
 * What a model call is for: the usage ledger records it, and a budget decides
 * by it which calls may still run.
 */
export type CallPurpose =
  | "chat"
  | "tool-round"
  | "lookup-follow-up"
  | "extraction"
  | "judge"
  | "summary"
  | "diary"
  | "reflection"
  | "greeting"
  | "concern"
  | "analysis"
  | "history"
  | "other";

export interface ChatRequest {
  /** The cheat sheet's system part. */
  system: string;
  /**
   * The leading part of `system` that stays byte-identical from one call to
   * the next (persona, rules, boundaries, marker instructions): Anthropic
   * gets it as its own system block marked for prompt caching; servers with
   * automatic prefix caching hit on it because it comes first.
   */
  stablePrefix?: string;
  /** Recent turns and the new message, oldest first, ending with a user message. */
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object answer where the provider supports it. */
  json?: boolean;
  /** The shape a JSON answer must have; a provider that can constrain its output (a grammar) uses it. */
  schema?: z.ZodType;
  /** What this call is for (ledger, budgets); unset counts as "other". */
  purpose?: CallPurpose;
  /** The Lilo user the call is for (ledger); unset for calls that serve nobody in particular. */
  userId?: string;
  /** Tools the model may call natively; "none" forbids calls while tool messages are in the history. */
  tools?: ToolSpec[];
  toolChoice?: "auto" | "none";
  /** Retries of this call by the provider's SDK; default the configured count. 0 for a caller that retries on its own terms. */
  maxRetries?: number;
  signal?: AbortSignal;
  /**
   * Asks for the answer as it is written: a provider that can stream calls
   * this with each piece of text, in order, and still resolves with the whole
   * response (usage, tool calls). Failures before the first piece are retried
   * as for any call, never after it (the caller has shown that text). A
   * provider that cannot stream ignores it. JSON calls never set it.
   */
  onDelta?: (text: string) => void;
}

export interface ChatResponse {
  text: string;
  /** The model that answered, as the provider reports it. */
  model: string;
  stopReason?: string;
  /**
   * Token counts as the provider reported them. `inputTokens` is the whole
   * prompt; `cachedInputTokens` the part of it read from a prompt cache,
   * `cacheWriteTokens` the part written into one (Anthropic bills it higher).
   */
  usage?: { inputTokens: number; outputTokens: number; cachedInputTokens?: number; cacheWriteTokens?: number };
  /** Native tool calls the model wants answered before it writes its answer. */
  toolCalls?: ToolCall[];
}

/** A language model behind any provider. Throws ProviderError on failure. */
export interface ChatModel {
  /** Provider name as configured, e.g. "anthropic", "deepseek", "ollama". */
  readonly provider: string;
  /** Model name sent to the provider. */
  readonly model: string;
  complete(request: ChatRequest): Promise<ChatResponse>;
}

/** "provider:model", the label stored with every message Lilo writes. */
export function modelLabel(m: Pick<ChatModel, "provider" | "model">): string {
  return `${m.provider}:${m.model}`;
}
