/** One message of the conversation sent to a model. */
export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

export interface ChatRequest {
  /** The cheat sheet's system part. */
  system: string;
  /** Recent turns and the new message, oldest first, ending with a user message. */
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  /** Ask for a JSON object answer where the provider supports it. */
  json?: boolean;
  signal?: AbortSignal;
}

export interface ChatResponse {
  text: string;
  /** The model that answered, as the provider reports it. */
  model: string;
  stopReason?: string;
  usage?: { inputTokens: number; outputTokens: number };
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
