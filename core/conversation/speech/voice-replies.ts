import { performance } from "node:perf_hooks";
import type { Clock } from "../../foundation/ports/clock.ts";
import type { Logger } from "../../foundation/ports/logger.ts";
import type { Speaker } from "../../foundation/ports/speaker.ts";
import type { SpeechConfig } from "../../foundation/config/media.ts";
import { voiceFor } from "../../foundation/config/media.ts";
import type { SettingsStore } from "../../foundation/store/settings.ts";
import type { UsageLedger } from "../../foundation/store/usage-ledger.ts";
import type { Budget } from "../../foundation/usage/budget.ts";
import { costOf, priceOf, type PriceTable } from "../../foundation/usage/prices.ts";
import type { OpusConverter } from "../../foundation/providers/ffmpeg-opus.ts";
import { describeError } from "../../foundation/errors.ts";
import { isOggOpus, oggOpusDurationMs } from "../../foundation/util/ogg-opus.ts";
import { localDay } from "../../foundation/util/time.ts";
import type { MarkerRegistry } from "../markers/marker-registry.ts";
import { speakableText } from "./speakable-text.ts";
import { SPEECH_TEXTS } from "./speech-texts.ts";

/** When Lilo answers with her voice: to voice notes ("auto"), to everything ("always"), never ("off"). */
export type VoiceMode = "auto" | "always" | "off";

/** A voice reply made, or why the answer stays text only. */
export type VoiceReply =
  | {
      kind: "voice";
      /** OGG/Opus. */
      audio: Uint8Array;
      /** What was read out. */
      spoken: string;
      /** Only part of the answer was read out (the whole of it is in the text). */
      shortened: boolean;
      /** How long it plays, when the file says. */
      durationMs: number | undefined;
    }
  | {
      kind: "text-only";
      reason: "nothing-to-say" | "budget-spent" | "failed" | "not-opus";
      /** One sentence for the person (the spent budget, once a day). */
      note?: string;
    };

/** The per-person setting of `/voice`. */
const MODE_KEY = "voice.replies";
/** Per person: the local day on which they were told the budget keeps her voice back. */
const TOLD_KEY = "voice.budget_told_on";

/** What voice replies work with. */
export interface VoiceRepliesDeps {
  speaker: Speaker | undefined;
  converter: OpusConverter;
  settings: Pick<SettingsStore, "get" | "set" | "delete">;
  ledger: UsageLedger;
  budget: Pick<Budget, "status">;
  prices: () => PriceTable;
  clock: Clock;
  timeZone: string;
  logger: Logger;
  markers: MarkerRegistry;
  language: "de" | "en";
  speech: SpeechConfig;
  /** LILO_VOICE_REPLIES. */
  mode: VoiceMode;
  /** Told after each recorded speech call (the budget warning looks then). */
  recorded?: () => void;
}

/**
 * Lilo's voice: whether an answer gets a voice note (LILO_VOICE_REPLIES and
 * `/voice` per person), and making it — the answer's words without markers,
 * within the budget, recorded in the usage ledger as a `speech` call
 * (characters as its input, priced per million characters), and always
 * OGG/Opus (converted when the endpoint sent something else, or not sent at
 * all). Never throws: a voice reply that cannot be made leaves the text.
 */
export class VoiceReplies {
  constructor(private readonly d: VoiceRepliesDeps) {}

  /** Is a speech endpoint configured? */
  get enabled(): boolean {
    return this.d.speaker !== undefined;
  }

  /** The person's mode: their `/voice` choice, else LILO_VOICE_REPLIES. */
  mode(userId: string): VoiceMode {
    const own = this.d.settings.get(MODE_KEY, userId);
    return own === "always" || own === "off" || own === "auto" ? own : this.d.mode;
  }

  /** Sets the person's mode (`/voice on|off|auto`). */
  setMode(userId: string, mode: VoiceMode): void {
    this.d.settings.set(MODE_KEY, mode, this.d.clock.now().toISOString(), userId);
  }

  /** Should the answer to this message be spoken too? `voiceIn`: the message was a voice note. */
  wants(userId: string, voiceIn: boolean): boolean {
    if (!this.d.speaker) return false;
    const mode = this.mode(userId);
    return mode === "always" || (mode === "auto" && voiceIn);
  }

  /** Looks for the converter once, at start, and says in the log what audio can be sent. */
  async check(): Promise<void> {
    if (!this.d.speaker) return;
    const found = await this.d.converter.available();
    if (found) this.d.logger.info("voice replies: ffmpeg found, audio in other formats is converted to OGG/Opus", { ffmpeg: this.d.speech.ffmpeg });
    else this.d.logger.info("voice replies: no ffmpeg; audio the endpoint sends in another format than OGG/Opus is not sent", { ffmpeg: this.d.speech.ffmpeg });
  }

  /** Makes the voice note of an answer's text for this person. */
  async reply(userId: string, answer: string): Promise<VoiceReply> {
    const speaker = this.d.speaker;
    const { text, shortened } = speakableText(answer, this.d.markers, this.d.speech.maxChars);
    if (!speaker || !/[\p{L}\p{N}]/u.test(text)) return { kind: "text-only", reason: "nothing-to-say" };
    if (this.d.budget.status().capped) {
      this.d.logger.info("voice reply left out: the budget is spent", { userId });
      return { kind: "text-only", reason: "budget-spent", ...(this.claimTold(userId) ? { note: SPEECH_TEXTS[this.d.language].budgetSpent } : {}) };
    }
    const started = performance.now();
    let audio: Uint8Array;
    try {
      const got = await speaker.speak({ text, language: this.d.language, voice: voiceFor(this.d.speech, this.d.language) });
      this.record(speaker, userId, text.length, performance.now() - started);
      audio = got.data;
    } catch (err) {
      this.d.logger.warn("voice reply not made; the answer stays text", { userId, speech: `${speaker.provider}:${speaker.model}`, error: describeError(err) });
      return { kind: "text-only", reason: "failed" };
    }
    const opus = await this.asOpus(audio);
    return opus ? { kind: "voice", audio: opus, spoken: text, shortened, durationMs: oggOpusDurationMs(opus) } : { kind: "text-only", reason: "not-opus" };
  }

  /** The audio as OGG/Opus: as it came, or converted by ffmpeg; undefined (logged) when neither. */
  private async asOpus(audio: Uint8Array): Promise<Uint8Array | undefined> {
    if (isOggOpus(audio)) return audio;
    if (!(await this.d.converter.available())) {
      this.d.logger.warn("voice reply not sent: the endpoint sent no OGG/Opus and ffmpeg is not there to convert it", { ffmpeg: this.d.speech.ffmpeg });
      return undefined;
    }
    try {
      const converted = await this.d.converter.toOggOpus(audio);
      if (isOggOpus(converted)) return converted;
      this.d.logger.warn("voice reply not sent: ffmpeg gave no OGG/Opus", { ffmpeg: this.d.speech.ffmpeg });
    } catch (err) {
      this.d.logger.warn("voice reply not sent: converting it to OGG/Opus failed", { error: describeError(err) });
    }
    return undefined;
  }

  /** One ledger row per speech call: the characters read out as its input. */
  private record(speaker: Speaker, userId: string, chars: number, latencyMs: number): void {
    try {
      const counts = { inputTokens: chars, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0 };
      // The price table first; a model it does not know costs nothing on the owner's own server, and is unpriced elsewhere.
      const price = priceOf(this.d.prices(), speaker.provider, speaker.model) ?? (speaker.local ? { input: 0, cachedInput: 0, output: 0 } : undefined);
      const now = this.d.clock.now();
      this.d.ledger.add({
        at: now.toISOString(),
        localDay: localDay(now, this.d.timeZone),
        userId,
        provider: speaker.provider,
        model: speaker.model,
        purpose: "speech",
        ...counts,
        estimated: false,
        latencyMs,
        cost: price ? costOf(price, counts) : null,
      });
      this.d.recorded?.();
    } catch (err) {
      // The audio is made and paid for; a ledger that cannot be written must not take it away.
      this.d.logger.error("speech call not recorded in the usage ledger", { error: describeError(err) });
    }
  }

  /** Marks the person told today that the budget keeps her voice back; false when they were already. */
  private claimTold(userId: string): boolean {
    const today = localDay(this.d.clock.now(), this.d.timeZone);
    if (this.d.settings.get(TOLD_KEY, userId) === today) return false;
    this.d.settings.set(TOLD_KEY, today, this.d.clock.now().toISOString(), userId);
    return true;
  }
}
