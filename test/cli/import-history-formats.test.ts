import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { createLilo, type Lilo } from "../../core/index.ts";
import { openLiloDatabase, type Db } from "../../core/foundation/store/db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";
import { runCli } from "../helpers/cli.ts";

/** One export in one layout, with one distinctive fact the person said. */
interface Layout {
  name: string;
  file: string;
  bytes: Uint8Array;
  format: string;
  messages: number;
  me: string[];
  question: string;
  /** The person's line, as the cheat sheet shows it. */
  fact: RegExp;
  /** Who the other party's lines are under, and the local day of the chat. */
  other: string;
  day: string;
}

const whatsAppIos = [
  "[2/3/25, 8:01:10 PM] Ines: \u200eMessages and calls are end-to-end encrypted. No one outside of this chat can read them.",
  "[2/3/25, 8:01:10 PM] Ines: How was the pottery class?",
  "[2/3/25, 8:03:40 PM] Ravi: Great, I glazed a teapot in cobalt blue and named it Gustav.",
  "[2/3/25, 8:04:02 PM] Ines: \u200eimage omitted",
  "[2/3/25, 8:05:13 PM] Ines: Gustav!",
].join("\n");

const whatsAppAndroidZip = zipSync({
  "WhatsApp Chat mit Pia.txt": strToU8(
    [
      "14.02.25, 18:20 - Nachrichten und Anrufe sind Ende-zu-Ende-verschlüsselt.",
      "14.02.25, 18:21 - Pia: Was machst du am Wochenende?",
      "14.02.25, 18:22 - Ravi: Ich fahre zum Eisangeln an den Plansee,",
      "mit dem alten Zelt von Opa.",
      "14.02.25, 18:23 - Pia: <Medien ausgeschlossen>",
      "14.02.25, 18:24 - Pia: Pass auf dich auf!",
    ].join("\n"),
  ),
  "IMG-20250214-WA0001.jpg": new Uint8Array([0xff, 0xd8, 0xff]),
});

const telegram = JSON.stringify({
  name: "Ole",
  type: "personal_chat",
  id: 77,
  messages: [
    { id: 1, type: "message", date: "2025-04-02T09:00:00", date_unixtime: "1743577200", from: "Ole", from_id: "user77", text: "Na, wie geht's dem Garten?" },
    {
      id: 2,
      type: "message",
      date: "2025-04-02T09:02:00",
      date_unixtime: "1743577320",
      from: "Ravi",
      from_id: "user1",
      text: ["Die ", { type: "bold", text: "Quittenbäume" }, " am Schuppen blühen zum ersten Mal."],
    },
    { id: 3, type: "service", date: "2025-04-02T09:03:00", date_unixtime: "1743577380", actor: "Ole", action: "pin_message", text: "" },
  ],
});

const node = (id: string, parent: string | null, children: string[], role: string | null, text: string, time: number) => ({
  id,
  parent,
  children,
  message: role === null ? null : { id, author: { role }, create_time: time, content: { content_type: "text", parts: [text] }, metadata: {} },
});
const chatgpt = JSON.stringify([
  {
    title: "Bike trip",
    create_time: 1746000000,
    update_time: 1746000100,
    current_node: "b",
    conversation_id: "c-77",
    mapping: {
      root: node("root", null, ["a"], null, "", 0),
      a: node("a", "root", ["b"], "user", "I am cycling from Passau to Vienna in June on my recumbent bike called Sturmvogel.", 1746000010),
      b: node("b", "a", [], "assistant", "That route along the Danube is flat and lovely.", 1746000030),
    },
  },
]);

const claude = JSON.stringify([
  {
    uuid: "k1",
    name: "Choir",
    created_at: "2025-05-06T18:00:00.000000Z",
    updated_at: "2025-05-06T18:05:00.000000Z",
    account: { uuid: "acc" },
    chat_messages: [
      { uuid: "q1", sender: "human", text: "I sing second bass in a choir that rehearses in a former tram depot.", created_at: "2025-05-06T18:00:05.000000Z" },
      { uuid: "q2", sender: "assistant", text: "A tram depot must have remarkable acoustics.", created_at: "2025-05-06T18:00:20.000000Z" },
    ],
  },
]);

const LAYOUTS: Layout[] = [
  {
    name: "WhatsApp, iOS, English, 12-hour",
    file: "chat-ines.txt",
    bytes: strToU8(whatsAppIos),
    format: "whatsapp",
    messages: 3,
    me: ["--me", "Ravi"],
    question: "What did I call my teapot?",
    fact: /teapot in cobalt blue and named it Gustav/,
    other: "Ines",
    day: "2025-02-03",
  },
  {
    name: "WhatsApp, Android, German, the phone's .zip",
    file: "WhatsApp Chat mit Pia.zip",
    bytes: whatsAppAndroidZip,
    format: "whatsapp",
    messages: 3,
    me: ["--me", "Ravi"],
    question: "Wohin fahre ich zum Eisangeln?",
    fact: /Eisangeln an den Plansee, mit dem alten Zelt von Opa/,
    other: "Pia",
    day: "2025-02-14",
  },
  {
    name: "Telegram Desktop, result.json",
    file: "result.json",
    bytes: strToU8(telegram),
    format: "telegram",
    messages: 2,
    me: ["--me", "Ravi"],
    question: "Was blüht am Schuppen?",
    fact: /Die Quittenbäume am Schuppen blühen/,
    other: "Ole",
    day: "2025-04-02",
  },
  {
    name: "ChatGPT, conversations.json",
    file: "conversations.json",
    bytes: strToU8(chatgpt),
    format: "chatgpt",
    messages: 2,
    me: [],
    question: "What is my recumbent bike called?",
    fact: /recumbent bike called Sturmvogel/,
    other: "ChatGPT",
    day: "2025-04-30",
  },
  {
    name: "Claude, conversations.json",
    file: "conversations.json",
    bytes: strToU8(claude),
    format: "claude",
    messages: 2,
    me: [],
    question: "Where does my choir rehearse?",
    fact: /choir that rehearses in a former tram depot/,
    other: "Claude",
    day: "2025-05-06",
  },
];

/**
 * Each layout the importer reads, with a file no other test has seen: the dry
 * run names the format and the count and writes nothing; after --apply the
 * person's fact is on the cheat sheet as their own line, the other party's
 * lines are not theirs, and importing again changes no row count.
 */
describe("lilo import-history, every layout end to end", () => {
  let t: TestLilo;
  let db: Db;
  const open = (): Lilo => createLilo(t.lilo.config, { embedder: t.embedder, db, clock: t.lilo.clock });
  const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;

  beforeEach(() => {
    t = makeTestLilo({ LILO_TIMEZONE: "Europe/Berlin", LILO_TERMINAL_USER: "ravi" });
    db = openLiloDatabase(t.lilo.config);
  });
  afterEach(async () => {
    db.close();
    await t.cleanup();
  });

  for (const l of LAYOUTS) {
    it(`imports ${l.name}`, async () => {
      const file = join(t.dir, l.file);
      writeFileSync(file, l.bytes);
      const dry = await runCli(open, ["import-history", file, ...l.me]);
      expect(dry.code).toBe(0);
      expect(dry.out).toContain(`format: ${l.format}`);
      expect(dry.out).toContain(`messages: ${l.messages}, from ${l.day} to ${l.day}`);
      expect(count("SELECT count(*) AS n FROM messages")).toBe(0);

      const applied = await runCli(open, ["import-history", file, ...l.me, "--apply"]);
      expect(applied.out).toContain(`added ${l.messages} messages`);
      const sheet = (await runCli(open, ["preview", l.question])).out;
      const line = sheet.split("\n").find((x) => l.fact.test(x));
      // The person's own line: neither under the other party's name nor under Lilo's.
      expect(line).toMatch(new RegExp(`^» \\[${l.day} \\d\\d:\\d\\d\\] dein Gegenüber: `));
      expect(sheet).toMatch(new RegExp(`^» \\[${l.day} \\d\\d:\\d\\d\\] ${l.other}: `, "m"));

      const rows = count("SELECT count(*) AS n FROM messages");
      await runCli(open, ["import-history", file, ...l.me, "--apply"]);
      expect(count("SELECT count(*) AS n FROM messages")).toBe(rows);
    });
  }
});
