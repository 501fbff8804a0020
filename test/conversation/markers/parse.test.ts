import { describe, expect, it } from "vitest";
import { parseMarkers as parseWith } from "../../../core/conversation/markers/parse.ts";
import { markerInstructions } from "../../../core/conversation/prompts/markers.ts";
import { MARKERS } from "../../../core/conversation/markers/registry.ts";

/** Every test here parses with Lilo's own registry. */
const parseMarkers = (answer: string) => parseWith(answer, MARKERS);
/** Kind of every built-in marker. */
const MARKER_KINDS: Record<string, "fetch" | "store"> = Object.fromEntries(MARKERS.all.map((d) => [d.name, d.kind]));

const names = (answer: string) => parseMarkers(answer).markers.map((m) => `${m.name}:${m.payload}`);

describe("parseMarkers – finding", () => {
  it("takes a marker (name, payload, kind) out of the text", () => {
    const r = parseMarkers("Moment, ich schaue nach. [RECALL: Film Kino Bewertung]");
    expect(r.markers).toEqual([{ name: "RECALL", payload: "Film Kino Bewertung", kind: "fetch" }]);
    expect(r.text).toBe("Moment, ich schaue nach.");
  });

  it("returns every marker of an answer in order", () => {
    const r = parseMarkers("[THOUGHT: eins] Hallo [SEARCH: Wetter] und [RECALL: Kino] [THOUGHT: zwei]");
    expect(r.markers.map((m) => m.name)).toEqual(["THOUGHT", "SEARCH", "RECALL", "THOUGHT"]);
    expect(r.markers.filter((m) => m.kind === "fetch")).toHaveLength(2);
    expect(r.text).toBe("Hallo und");
  });

  it("a fetch marker is always stripped (even if the search later finds nothing)", () => {
    expect(parseMarkers("Ich suche mal. [SEARCH: xyzzy nichts]").text).toBe("Ich suche mal.");
  });

  it("is tolerant: case, extra spaces, round brackets", () => {
    expect(names("a [recall: x] b")).toEqual(["RECALL:x"]);
    expect(names("a [ recall :  x  ] b")).toEqual(["RECALL:x"]);
    expect(names("a (RECALL: x) b")).toEqual(["RECALL:x"]);
    expect(names("a [Thought: y] b")).toEqual(["THOUGHT:y"]);
    expect(parseMarkers("a (RECALL: x) b").text).toBe("a b");
  });

  it("accepts VORSCHLAG with double, single, missing or extra brackets", () => {
    for (const s of ["[[VORSCHLAG: Idee]]", "[VORSCHLAG: Idee]", "[[VORSCHLAG: Idee]", "[VORSCHLAG: Idee]]"]) {
      const r = parseMarkers(`Gut. ${s} Weiter.`);
      expect(r.markers).toEqual([{ name: "VORSCHLAG", payload: "Idee", kind: "store" }]);
      expect(r.text).toBe("Gut. Weiter.");
    }
  });

  it("maps unambiguous variants", () => {
    expect(names("[GEDANKE: a] [Tagebuch: b] [FOLLOW-UP: c] [follow_up: d] [KI-NEWS: e] [WICHTIG: f] [Stimmung: g]")).toEqual([
      "THOUGHT:a",
      "DIARY:b",
      "FOLLOWUP:c",
      "FOLLOWUP:d",
      "NEWS:e",
      "IMPORTANT:f",
      "EMOTION:g",
    ]);
  });

  it("keeps a multiline payload", () => {
    const r = parseMarkers("Text.\n[THOUGHT: erste Zeile\nzweite Zeile]\nMehr.");
    expect(r.markers[0]!.payload).toBe("erste Zeile\nzweite Zeile");
    expect(r.text).toBe("Text.\nMehr.");
  });

  it("keeps nested brackets inside a payload", () => {
    expect(names("[THOUGHT: Quelle [1] war gut] ok")).toEqual(["THOUGHT:Quelle [1] war gut"]);
  });

  it("strips an empty payload without returning it", () => {
    const r = parseMarkers("Hallo [RECALL: ] du [THOUGHT:]");
    expect(r.markers).toEqual([]);
    expect(r.text).toBe("Hallo du");
  });

  it("covers every known marker name with the right kind", () => {
    for (const [name, kind] of Object.entries(MARKER_KINDS)) {
      expect(parseMarkers(`x [${name}: p]`).markers).toEqual([{ name, payload: "p", kind }]);
    }
  });

  it("reads every marker the prompt teaches", () => {
    const all = Object.keys(MARKER_KINDS) as (keyof typeof MARKER_KINDS)[];
    const prompt = markerInstructions("de", all, MARKERS)
      .split("\n")
      .filter((l) => l.startsWith("- "))
      .join("\n");
    expect(new Set(parseMarkers(prompt).markers.map((m) => m.name))).toEqual(new Set(all));
  });
});

describe("parseMarkers – unknown, malformed, truncated", () => {
  it("strips an unknown ALL-CAPS marker without returning it", () => {
    const r = parseMarkers("Hier [FOO: bar] bitte. [BROWSE: https://x.y]");
    expect(r.markers).toEqual([]);
    expect(r.text).toBe("Hier bitte.");
  });

  it("keeps ordinary bracketed text", () => {
    for (const s of ["Siehe [1].", "(siehe oben: Seite 3)", "[Quelle: Wikipedia]", "[x] erledigt", "[Link](http://a.b)", "(HINWEIS: so)"]) {
      expect(parseMarkers(s)).toEqual({ text: s, markers: [] });
    }
  });

  it("strips a truncated marker at the end without returning it", () => {
    expect(parseMarkers("Schön, dich zu sehen! [THOUGHT: unfinished")).toEqual({ text: "Schön, dich zu sehen!", markers: [] });
    expect(parseMarkers("Klar. [THOUGHT: zwei\nZeilen").text).toBe("Klar.");
    expect(parseMarkers("Klar. [EMOT").text).toBe("Klar.");
    expect(parseMarkers("Klar. [[VORSCH").text).toBe("Klar.");
    expect(parseMarkers("Klar. [FOO: bar").text).toBe("Klar.");
  });

  it("a forgotten bracket does not swallow the following paragraphs", () => {
    expect(parseMarkers("[THOUGHT: vergessen\n\nHier ist meine Antwort.").text).toBe("Hier ist meine Antwort.");
  });

  it("reads a marker with a forgotten colon when its name is canonical", () => {
    expect(parseMarkers("Das freut mich! [Emotion froh]")).toEqual({ text: "Das freut mich!", markers: [{ name: "EMOTION", payload: "froh", kind: "store" }] });
    expect(parseMarkers("[THOUGHT er wirkt müde] Wie geht's?").markers).toEqual([{ name: "THOUGHT", payload: "er wirkt müde", kind: "store" }]);
    // Prose in brackets stays: aliases and ordinary words need the colon.
    for (const t of ["[Wichtig ist das nicht]", "[Quelle Wikipedia]", "[siehe unten]", "[x] erledigt"])
      expect(parseMarkers(t)).toEqual({ text: t, markers: [] });
  });

  it("strips emphasis around a marker with it", () => {
    expect(parseMarkers("Schön! **[EMOTION: freude]**")).toEqual({ text: "Schön!", markers: [{ name: "EMOTION", payload: "freude", kind: "store" }] });
    expect(parseMarkers("Ja *[THOUGHT: x]* genau").text).toBe("Ja genau");
    expect(parseMarkers("__[EMOTION: neutral]__ Hallo").text).toBe("Hallo");
    // Emphasis that does not wrap the marker stays.
    expect(parseMarkers("**fett** [EMOTION: freude]").text).toBe("**fett**");
  });

  it("never returns markers from a truncated head like [1 or lone brackets", () => {
    expect(parseMarkers("Ende [").text).toBe("Ende [");
    expect(parseMarkers("Punkte (a) und [b").text).toBe("Punkte (a) und [b");
  });
});

describe("parseMarkers – examples are left alone", () => {
  it("ignores markers in a fenced code block", () => {
    const s = "So geht das:\n```\n[THOUGHT: Beispiel]\n```\nFertig.";
    expect(parseMarkers(s)).toEqual({ text: s, markers: [] });
    const t = "So:\n~~~text\n[RECALL: x]\n~~~\n[EMOTION: freude]";
    expect(parseMarkers(t)).toEqual({ text: "So:\n~~~text\n[RECALL: x]\n~~~", markers: [{ name: "EMOTION", payload: "freude", kind: "store" }] });
  });

  it("ignores markers in inline code", () => {
    const s = "Ich schreibe `[RECALL: Suchbegriffe]` und ``[THOUGHT: a]`` dann.";
    expect(parseMarkers(s)).toEqual({ text: s, markers: [] });
  });

  it("ignores markers on a quote line", () => {
    const s = "Beispiel:\n> [THOUGHT: ein Gedanke]\nSo einfach.";
    expect(parseMarkers(s)).toEqual({ text: s, markers: [] });
  });

  it("ignores markers in straight, German and curly quotes", () => {
    for (const s of [
      'Du schreibst "[RECALL: Film]" und ich suche.',
      "Du schreibst „[RECALL: Film]“ und ich suche.",
      "Du schreibst „[RECALL: Film]” und ich suche.",
      "You write “[RECALL: film]” and I search.",
      "Du schreibst »[RECALL: Film]« und ich suche.",
    ])
      expect(parseMarkers(s)).toEqual({ text: s, markers: [] });
  });

  it("still executes a real marker next to an example", () => {
    const r = parseMarkers('Etwa "[THOUGHT: x]". [THOUGHT: echt] Und `[EMOTION: a]`. [EMOTION: froh]');
    expect(r.markers.map((m) => m.payload)).toEqual(["echt", "froh"]);
    expect(r.text).toBe('Etwa "[THOUGHT: x]". Und `[EMOTION: a]`.');
  });

  it("an unpaired quote or backtick does not hide a real marker", () => {
    expect(names('Der Bildschirm hat 27" [EMOTION: freude]')).toEqual(["EMOTION:freude"]);
    expect(names("Ein ` allein [EMOTION: freude]")).toEqual(["EMOTION:freude"]);
  });

  it("quotes inside a payload belong to the marker", () => {
    expect(names('[THOUGHT: Er sagte "später"] ok')).toEqual(['THOUGHT:Er sagte "später"']);
  });
});

describe("parseMarkers – whitespace", () => {
  it("closes the gap a stripped marker leaves", () => {
    expect(parseMarkers("Hallo [THOUGHT: a] du.").text).toBe("Hallo du.");
    expect(parseMarkers("Hallo [THOUGHT: a].").text).toBe("Hallo.");
    expect(parseMarkers("Absatz.\n\n[THOUGHT: a]\n\nNoch einer.").text).toBe("Absatz.\n\nNoch einer.");
    expect(parseMarkers("Zeile 1\n[THOUGHT: a]\nZeile 2").text).toBe("Zeile 1\nZeile 2");
    expect(parseMarkers("A\n\n[THOUGHT: a]\n\n[THOUGHT: b]\n\nB").text).toBe("A\n\nB");
    expect(parseMarkers("Satz. [EMOTION: freude]\n\nNeu.").text).toBe("Satz.\n\nNeu.");
    expect(parseMarkers("[THOUGHT: a]\n\nText").text).toBe("Text");
    expect(parseMarkers("(ganz [THOUGHT: a] so)").text).toBe("(ganz so)");
  });

  it("does not otherwise change the text", () => {
    const s = "Liste:\n\n\n  - eins  \n  - zwei\n\nEnde";
    expect(parseMarkers(s).text).toBe(s);
    expect(parseMarkers(`${s} [EMOTION: ruhig]`).text).toBe(s);
    expect(parseMarkers("Code:\n    eingerückt\n[THOUGHT: a]\n    auch").text).toBe("Code:\n    eingerückt\n    auch");
  });
});
