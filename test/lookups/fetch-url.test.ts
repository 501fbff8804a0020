import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeWeb, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, isExtraction, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../helpers/test-lilo.ts";
import { forbiddenReason } from "../../core/lookups/web/address-guard.ts";
import { readPage } from "../../core/lookups/web/read-page.ts";
import { LookupError } from "../../core/index.ts";

const caps = { maxBytes: 2_000_000, timeoutMs: 5_000, maxChars: 4_000 };
const ARTICLE = `<html><head><title>Katzen im Winter</title></head><body><nav>Start | Impressum</nav>
<article><h1>Katzen im Winter</h1><p>${"Katzen mögen es warm und schlafen bis zu sechzehn Stunden. ".repeat(12)}</p><p>Ein Platz am Fenster hilft.</p></article>
<footer>© Katzenblatt</footer><script>track()</script></body></html>`;

describe("fetch_url", () => {
  let web: FakeWeb;
  beforeEach(async () => {
    web = await startFakeWeb();
    web.page("/katzen", "text/html; charset=utf-8", ARTICLE).page("/notes.txt", "text/plain", "Nur Text.").page("/data.json", "application/json", '{"a":1}');
    web.page("/bild.png", "image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });
  afterEach(() => web.close());

  it("lets only public addresses through: private, loopback, link-local, metadata, multicast or mapped ones are refused", () => {
    for (const a of [
      "10.0.0.1",
      "192.168.1.1",
      "172.16.0.5",
      "127.0.0.1",
      "169.254.169.254",
      "0.0.0.0",
      "100.64.0.1",
      "::1",
      "fe80::1",
      "fd00::1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "224.0.0.1",
    ]) {
      expect(forbiddenReason(a), a).toBeDefined();
    }
    for (const a of ["93.184.216.34", "2606:4700::1111", "::ffff:8.8.8.8"]) expect(forbiddenReason(a), a).toBeUndefined();
    expect(forbiddenReason("127.0.0.1", true)).toBeUndefined(); // the test switch allows loopback only
    expect(forbiddenReason("10.0.0.1", true)).toBeDefined();
  });

  it("refuses a private target (by address, by name, behind a redirect), a non-http scheme or a non-page type, each with the reason refused", async () => {
    web.redirect("/weiter", "http://10.1.2.3/admin");
    const loopbackOk = { ...caps, allowLoopback: true };
    const refused = async (url: string, o = { ...caps, allowLoopback: false }) => {
      const err = await readPage(url, o).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, url).toBeInstanceOf(LookupError);
      expect((err as LookupError).reason, url).toBe("refused");
      return (err as LookupError).message;
    };
    expect(await refused("http://10.0.0.1/")).toMatch(/private/);
    expect(await refused("http://169.254.169.254/latest/meta-data/")).toMatch(/link-local/);
    expect(await refused(`http://localhost:${new URL(web.url).port}/katzen`)).toMatch(/loopback/);
    expect(await refused("http://[::ffff:a00:1]/")).toMatch(/private/);
    expect(await refused(`${web.url}/weiter`, loopbackOk)).toMatch(/10\.1\.2\.3 is a private/);
    expect(await refused("file:///etc/passwd")).toMatch(/only http and https/);
    expect(await refused(`${web.url}/bild.png`, loopbackOk)).toMatch(/image\/png is not a page/);
    expect(web.requests.map((r) => r.path)).toEqual(["/weiter", "/bild.png"]);
  });

  it("follows at most 5 redirects, each checked", async () => {
    for (let i = 0; i < 6; i++) web.redirect(`/r${i}`, `/r${i + 1}`);
    web.page("/r6", "text/plain", "angekommen");
    const err = await readPage(`${web.url}/r0`, { ...caps, allowLoopback: true }).catch((e: unknown) => e);
    expect((err as LookupError).message).toMatch(/more than 5 redirects/);
    const ok = await readPage(`${web.url}/r1`, { ...caps, allowLoopback: true });
    expect(ok).toMatchObject({ url: `${web.url}/r6`, text: "angekommen" });
  });

  /** The fake web runs on loopback, which the test switch lets through. */
  const local = { ...caps, allowLoopback: true };

  it("turns HTML into its readable text, without navigation or scripts", async () => {
    const page = await readPage(`${web.url}/katzen`, local);
    expect(page.title).toBe("Katzen im Winter");
    expect(page.text).toContain("Katzen mögen es warm");
    expect(page.text).toContain("Ein Platz am Fenster hilft.");
    expect(page.text).not.toMatch(/Impressum|track\(\)|Katzenblatt/);
  });

  it("passes plain text or JSON through as it is", async () => {
    expect((await readPage(`${web.url}/notes.txt`, local)).text).toBe("Nur Text.");
    expect((await readPage(`${web.url}/data.json`, local)).text).toBe('{"a":1}');
  });

  it("marks a page cut at maxChars or at maxBytes", async () => {
    const short = await readPage(`${web.url}/katzen`, { ...local, maxChars: 200 });
    expect(short.cut).toBe(true);
    expect(short.text.length).toBeLessThanOrEqual(202);
    const capped = await readPage(`${web.url}/notes.txt`, { ...local, maxBytes: 4 });
    expect(capped).toMatchObject({ text: "Nur", cut: true });
  });

  it("gives up after the time cap, also when the body has started", async () => {
    web.trickle("/langsam", "text/html");
    const err = await readPage(`${web.url}/langsam`, { ...caps, timeoutMs: 300, allowLoopback: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LookupError);
    expect((err as LookupError).message).toMatch(/within 300 ms/);
  });

  describe("in the chat turn", () => {
    let fake: FakeAnthropic;
    let t: TestLilo;
    afterEach(async () => {
      await t.cleanup();
      await fake.close();
    });

    it("[FETCH: url] reads the page into the follow-up", async () => {
      fake = await startFakeAnthropic();
      fake.replyAlways((b) =>
        isExtraction(b.system)
          ? NO_EXTRACTION
          : String(b.messages.at(-1)?.content).startsWith("Fundstücke")
            ? "Katzen schlafen viel."
            : `[FETCH: ${web.url}/katzen]`,
      );
      t = makeTestLilo(fakeAnthropicEnv(fake, { LILO_NATIVE_TOOLS: "markers", LILO_FETCH_ALLOW_LOOPBACK: "true" }));
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Lies mal den Artikel" });
      expect(r.text).toBe("Katzen schlafen viel.");
      expect(fake.requests[0]!.system).toContain("[FETCH:");
      const results = fake.requests[1]!.messages.at(-1)!.content;
      expect(results).toContain(`Seite „Katzen im Winter“ (${web.url}/katzen):`);
      expect(results).toContain("Katzen mögen es warm");
    });

    it("a fetch_url tool call to the metadata address comes back to the model as an error that says why", async () => {
      fake = await startFakeAnthropic();
      fake
        .reply({ text: "", toolCalls: [{ id: "toolu_m", name: "fetch_url", input: { url: "http://169.254.169.254/latest/meta-data/" } }] })
        .reply("Das kann ich nicht lesen.")
        .replyAlways(NO_EXTRACTION);
      t = makeTestLilo(fakeAnthropicEnv(fake));
      const r = await t.lilo.handleMessage({ userId: "chris", text: "Lies http://169.254.169.254/latest/meta-data/" });
      expect(r.text).toBe("Das kann ich nicht lesen.");
      const result = (fake.requests[1]!.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>)[0]!;
      expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_m", is_error: true });
      expect(result.content).toMatch(/Das lese ich nicht: .*link-local/);
    });
  });
});
