import type { LiloConfig } from "../../foundation/config/config.ts";
import { acceptsImages } from "../../foundation/config/media.ts";
import type { ChatModel, ChatRequest, ImageInput } from "../../foundation/ports/chat-model.ts";
import { MEDIA_TEXTS } from "../prompts/media-texts.ts";
import type { TurnContext, TurnResult } from "./types.ts";

/** How one turn treats the pictures of its message. */
interface ImagePlan {
  /** Puts the pictures on the request's last (the new) user message, when the model sees images. */
  attach(request: ChatRequest): ChatRequest;
  /** Tells the user the model could not see the pictures, when it could not. */
  annotate(result: TurnResult): TurnResult;
}

/**
 * Decides for one turn: a model that accepts images (LILO_VISION) gets them
 * with the caption; any other gets the caption and a line on the sheet, and
 * the answer starts with a short note that Lilo cannot see pictures yet.
 * `images` undefined: the message had none.
 */
export function imagePlan(
  config: { media: LiloConfig["media"]; language: "de" | "en" },
  model: Pick<ChatModel, "provider" | "model">,
  ctx: TurnContext,
  images: ImageInput[] | undefined,
): ImagePlan {
  const none: ImagePlan = { attach: (r) => r, annotate: (r) => r };
  if (!images) return none;
  const t = MEDIA_TEXTS[config.language];
  // An empty list: the adapter left the pictures out for a model without vision.
  if (!images.length || !acceptsImages(config.media, model)) {
    ctx.sheet.unseenPhotos = t.unseenPhotoHint;
    return { attach: (r) => r, annotate: (r) => ({ ...r, text: `${t.cannotSee}\n\n${r.text}` }) };
  }
  return {
    attach: (request) => {
      const last = request.messages.at(-1);
      if (last?.role !== "user") return request;
      return { ...request, messages: [...request.messages.slice(0, -1), { ...last, images }] };
    },
    annotate: (r) => r,
  };
}
