/**
 * Every marker Lilo understands: the default registry. A marker is one object
 * (core/conversation/markers/marker.ts) kept with its feature; each marker file
 * exports its markers and this file gathers them. The order the prompt teaches
 * them is each marker's own `teachOrder`, so the order of this list does not
 * matter: a new store marker goes into core/conversation/markers/store-markers.ts
 * (its object and its name in STORE_MARKERS) and touches nothing here.
 *
 * Only the composition root (`ports.markers ?? MARKERS`) and tests read this
 * constant; everything else is handed the one registry resolved there, so a
 * marker added through `LiloPorts.markers` is honoured everywhere.
 */
import { MarkerRegistry } from "./marker-registry.ts";
import { LOOKUP_MARKERS } from "./lookup-markers.ts";
import { STORE_MARKERS } from "./store-markers.ts";
import { EMOTION_MARKER } from "./emotion-marker.ts";
import { RECALL_MARKER } from "./recall-marker.ts";
import { DIARY_MARKER } from "./diary-marker.ts";
import { FOLLOWUP_MARKER } from "../topics/followup-marker.ts";
import { REMIND_MARKER } from "../reminders/reminder-marker.ts";

/** The markers of this program, in teaching order. */
export const MARKERS = new MarkerRegistry([...STORE_MARKERS, ...LOOKUP_MARKERS, EMOTION_MARKER, RECALL_MARKER, DIARY_MARKER, FOLLOWUP_MARKER, REMIND_MARKER]);

/** A built-in marker's canonical name: the union of the definitions' own names (a plugin's registry widens it, see `with`). */
export type MarkerName = ReturnType<typeof MARKERS.names>[number];
