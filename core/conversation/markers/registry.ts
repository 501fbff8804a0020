/**
 * Every marker Lilo understands. A marker is one object (core/conversation/markers/marker.ts)
 * kept with its feature; each marker file exports its markers and this file
 * gathers them. The order the prompt teaches them is each marker's own
 * `teachOrder`, so the order of this list does not matter: a new store marker
 * goes into core/conversation/markers/store-markers.ts (its object and its name in
 * STORE_MARKERS) and touches nothing here.
 */
import { MarkerRegistry } from "./marker.ts";
import { LOOKUP_MARKERS } from "./lookup-markers.ts";
import { STORE_MARKERS } from "./store-markers.ts";
import { EMOTION_MARKER } from "./emotion.ts";
import { RECALL_MARKER } from "./recall-marker.ts";
import { DIARY_MARKER } from "./diary-marker.ts";
import { FOLLOWUP_MARKER } from "../topics/followup-marker.ts";

/** The markers of this program, in teaching order. */
export const MARKERS = new MarkerRegistry([
  ...STORE_MARKERS, ...LOOKUP_MARKERS, EMOTION_MARKER, RECALL_MARKER, DIARY_MARKER, FOLLOWUP_MARKER,
]);
