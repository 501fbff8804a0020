import OpenAI from "openai";
import { PLACEHOLDER_API_KEY } from "./openai-model.ts";
import { sdkRetryOptions } from "./sdk-retry.ts";

/** Where an audio endpoint (transcription or speech) is and how long a call may take. */
export interface AudioEndpoint {
  apiKey?: string | undefined;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The OpenAI SDK's client for an OpenAI-compatible audio endpoint. Explicit
 * nulls keep the SDK from reading OPENAI_* variables and sending them to
 * another vendor; a local server without a key gets a placeholder.
 */
export function openAiAudioClient(endpoint: AudioEndpoint): OpenAI {
  return new OpenAI({
    apiKey: endpoint.apiKey || PLACEHOLDER_API_KEY,
    baseURL: endpoint.baseUrl,
    adminAPIKey: null,
    organization: null,
    project: null,
    timeout: endpoint.timeoutMs,
    ...sdkRetryOptions(endpoint.maxRetries),
  });
}
