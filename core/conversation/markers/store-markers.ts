/**
 * The store markers of the chat that save into memory: [IMPORTANT:],
 * [THOUGHT:] and [[VORSCHLAG:]], and the reflection's [ANSPRECHEN:] (parsed
 * everywhere, acted on only by the reflection, core/background/reflection/reflect.ts).
 */
import { storeMarker } from "./marker.ts";

/** [IMPORTANT:] — an important memory (store 4), on every sheet while it fits. */
const IMPORTANT_MARKER = storeMarker({
  name: "IMPORTANT",
  aliases: ["WICHTIG"],
  kind: "store",
  offer: "chat",
  teachOrder: 30,
  instruction: {
    de: "Ist etwas wirklich wichtig und soll auf Dauer bleiben: [IMPORTANT: was du dir merkst] – z. B. [IMPORTANT: Hat am 3. Mai Geburtstag]",
    en: "When something really matters and should stay for good: [IMPORTANT: what to keep] – e.g. [IMPORTANT: Birthday is on 3 May]",
  },
  async store(payload, turn, s) {
    const r = await s.memory.add({
      text: payload,
      userId: turn.userId,
      store: "important",
      extra: { weight: 2, source_message_id: turn.userMessageId, provenance: "inference", provenance_ref: String(turn.userMessageId) },
    });
    return r.added ? { storedId: r.id } : undefined;
  },
});

/** [THOUGHT:] — a thought of Lilo's own; several per answer are all saved. */
const THOUGHT_MARKER = storeMarker({
  name: "THOUGHT",
  aliases: ["GEDANKE", "GEDANKEN"],
  kind: "store",
  offer: "chat",
  teachOrder: 70,
  instruction: {
    de: "Hast du einen eigenen Gedanken, den du behalten willst (auch mehrere pro Antwort): [THOUGHT: dein Gedanke] – z. B. [THOUGHT: Er wirkt in letzter Zeit gestresster.]",
    en: "When you have a thought of your own worth keeping (several per answer are fine): [THOUGHT: your thought] – e.g. [THOUGHT: He seems more stressed lately.]",
  },
  async store(payload, turn, s) {
    const r = await s.memory.add({
      text: payload,
      userId: turn.userId,
      store: "thoughts",
      extra: { origin: "chat", provenance: "inference", provenance_ref: String(turn.userMessageId) },
    });
    return r.added ? { storedId: r.id } : undefined;
  },
});

/** [[VORSCHLAG:]] — an idea to improve Lilo, the one double-bracket marker. */
const SUGGESTION_MARKER = storeMarker({
  name: "VORSCHLAG",
  aliases: ["SUGGESTION"],
  kind: "store",
  offer: "chat",
  teachOrder: 100,
  doubleBracket: true,
  instruction: {
    de: "Hast du eine Idee, wie du oder die App besser werden könnt (doppelte Klammern): [[VORSCHLAG: Idee]] – z. B. [[VORSCHLAG: Erinnerungen nach Orten sortieren]]",
    en: "When you have an idea how you or the app could improve (double brackets): [[SUGGESTION: idea]] – e.g. [[SUGGESTION: sort memories by place]]",
  },
  store: (payload, turn, s) => ({ storedId: s.suggestions.add(turn.userId, payload, turn.now.toISOString()) }),
});

/** [ANSPRECHEN:] ([RAISE:] in English) — a concern for the next conversation, written only by the reflection. */
const CONCERN_MARKER = storeMarker({
  name: "ANSPRECHEN",
  aliases: ["RAISE"],
  kind: "store",
  offer: "elsewhere",
  teachOrder: 110,
  instruction: {
    de: "Möchtest du im nächsten Gespräch etwas ansprechen: [ANSPRECHEN: ein Satz] – z. B. [ANSPRECHEN: Frag nach, wie es der Katze geht.]",
    en: "When you want to raise something in the next conversation: [RAISE: one sentence] – e.g. [RAISE: Ask how the cat is doing.]",
  },
});

/**
 * The store markers of this file, gathered by the registry. A new store
 * marker is one object above, with its `teachOrder`, and its name here.
 */
export const STORE_MARKERS = [IMPORTANT_MARKER, THOUGHT_MARKER, SUGGESTION_MARKER, CONCERN_MARKER] as const;
