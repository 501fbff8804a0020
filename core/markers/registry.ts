/**
 * Every marker Lilo understands, in the order the prompt teaches them. A
 * marker is one object (core/markers/marker.ts) kept with its feature; a new
 * one is defined in its feature's file and listed here.
 */
import { MarkerRegistry } from "./marker.ts";
import { FETCH_MARKER, NEWS_MARKER, SEARCH_MARKER } from "./lookup-markers.ts";
import { RECALL_MARKER } from "../recall/recall-marker.ts";
import { DIARY_MARKER } from "../diary/diary-marker.ts";
import { CONCERN_MARKER, IMPORTANT_MARKER, SUGGESTION_MARKER, THOUGHT_MARKER } from "./store-markers.ts";
import { EMOTION_MARKER } from "./emotion.ts";
import { FOLLOWUP_MARKER } from "../topics/followup-marker.ts";

/** The markers of this program. */
export const MARKERS = new MarkerRegistry([
  RECALL_MARKER, DIARY_MARKER, IMPORTANT_MARKER, SEARCH_MARKER, FETCH_MARKER, NEWS_MARKER,
  THOUGHT_MARKER, FOLLOWUP_MARKER, EMOTION_MARKER, SUGGESTION_MARKER, CONCERN_MARKER,
]);
