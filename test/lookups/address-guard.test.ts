import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeAnthropic, type FakeAnthropic } from "../fakes/fake-anthropic.ts";
import { startFakeWeb, type FakeWeb } from "../fakes/fake-web.ts";
import { makeTestLilo, NO_EXTRACTION, fakeAnthropicEnv, type TestLilo } from "../helpers/test-lilo.ts";
import { forbiddenReason, resolvePublic } from "../../core/lookups/web/address-guard.ts";
import { readPage } from "../../core/lookups/web/read-page.ts";
import { LookupError } from "../../core/index.ts";

/** Every IPv6 spelling of an internal IPv4 address, with the IPv4 verdict it must get. */
const EMBEDDED: [string, RegExp][] = [
  // IPv4-compatible ::/96 (deprecated), dotted and hex
  ["::127.0.0.1", /embeds 127\.0\.0\.1 \(IPv4-compatible\), a loopback address/],
  ["::7f00:1", /embeds 127\.0\.0\.1 .*loopback/],
  ["0:0:0:0:0:0:7f00:1", /embeds 127\.0\.0\.1 .*loopback/],
  ["::a9fe:a9fe", /embeds 169\.254\.169\.254 .*link-local \(metadata\)/],
  ["::10.0.0.1", /embeds 10\.0\.0\.1 .*private/],
  // IPv4-mapped ::ffff:0:0/96 and IPv4-translated ::ffff:0:0:0/96
  ["::ffff:127.0.0.1", /embeds 127\.0\.0\.1 \(IPv4-mapped\), a loopback/],
  ["::ffff:a9fe:a9fe", /169\.254\.169\.254 .*link-local/],
  ["::ffff:0:127.0.0.1", /embeds 127\.0\.0\.1 \(IPv4-translated\)/],
  // NAT64, well-known and local-use prefix
  ["64:ff9b::127.0.0.1", /embeds 127\.0\.0\.1 \(NAT64, 64:ff9b::\/96\), a loopback/],
  ["64:ff9b::a9fe:a9fe", /169\.254\.169\.254 .*link-local/],
  ["64:ff9b::c0a8:101", /192\.168\.1\.1 .*private/],
  ["64:ff9b:1::a00:1", /embeds 10\.0\.0\.1 \(local-use NAT64, 64:ff9b:1::\/48\), a private/],
  // 6to4: the IPv4 in bits 16–47
  ["2002:7f00:1::", /embeds 127\.0\.0\.1 \(6to4\), a loopback/],
  ["2002:a9fe:a9fe::1", /169\.254\.169\.254 .*link-local/],
  ["2002:c0a8:101:1::1", /192\.168\.1\.1 .*private/],
  // Teredo: server in bits 32–63, client in the last 32 bits XOR 0xffffffff (0x80fffffe = 127.0.0.1)
  ["2001:0:4136:e378:8000:63bf:80ff:fffe", /embeds 127\.0\.0\.1 \(Teredo\), a loopback/],
  ["2001:0:4136:e378::5601:5601", /embeds 169\.254\.169\.254 \(Teredo\)/],
  ["2001:0:a00:1::1", /embeds 10\.0\.0\.1 \(Teredo\), a private/],
];

describe("address guard", () => {
  it("refuses every IPv6 spelling of a loopback, private, link-local or metadata IPv4 address like that address", () => {
    for (const [a, why] of EMBEDDED) expect(forbiddenReason(a), a).toMatch(why);
  });

  it("the loopback test switch lets through only the plain loopback spellings (127.x, ::1, ::ffff:127.0.0.1), never an embedded one", () => {
    for (const a of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) expect(forbiddenReason(a, true), a).toBeUndefined();
    for (const a of ["::7f00:1", "64:ff9b::7f00:1", "2002:7f00:1::", "2001:0:4136:e378:8000:63bf:80ff:fffe"])
      expect(forbiddenReason(a, true), a).toMatch(/loopback/);
  });

  it("passes a public IPv4 address behind NAT64 or in mapped form, like any public address", () => {
    for (const a of ["64:ff9b::808:808", "64:ff9b::8.8.8.8", "::ffff:8.8.8.8", "2606:4700::1111", "2a00:1450:4001::200e", "93.184.216.34"]) {
      expect(forbiddenReason(a), a).toBeUndefined();
    }
  });

  it("refuses deprecated IPv6 forms, reserved space or anything that is not an address", () => {
    expect(forbiddenReason("::8.8.8.8")).toMatch(/IPv4-compatible form/);
    expect(forbiddenReason("2002:808:808::1")).toMatch(/6to4 form/);
    expect(forbiddenReason("2001:0:4136:e378:8000:63bf:f7f7:f7f7")).toMatch(/Teredo form/);
    expect(forbiddenReason("64:ff9b:1::808:808")).toMatch(/local-use NAT64/);
    expect(forbiddenReason("4000::1")).toMatch(/outside the global unicast range/);
    expect(forbiddenReason("100::1")).toMatch(/discard/);
    expect(forbiddenReason("::")).toMatch(/an unspecified address/);
    expect(forbiddenReason("fe80::1%eth0")).toMatch(/link-local/);
    expect(forbiddenReason("127.1")).toMatch(/not an IP address/);
  });

  it("resolvePublic refuses a bracketed literal as the URL parser writes it", async () => {
    for (const raw of ["http://[::127.0.0.1]/", "http://[64:ff9b::169.254.169.254]/", "http://[2002:a9fe:a9fe::]/"]) {
      const host = new URL(raw).hostname; // e.g. [::7f00:1]
      const err = await resolvePublic(host).catch((e: unknown) => e);
      expect(err, raw).toBeInstanceOf(LookupError);
      expect((err as LookupError).reason, raw).toBe("refused");
    }
  });
});

describe("fetch_url with an embedded internal address", () => {
  let web: FakeWeb;
  let fake: FakeAnthropic | undefined;
  let t: TestLilo | undefined;
  beforeEach(async () => {
    web = await startFakeWeb();
    web.page("/geheim", "text/plain", "intern");
  });
  afterEach(async () => {
    await t?.cleanup();
    await fake?.close();
    t = fake = undefined;
    await web.close();
  });

  it("readPage refuses a host that embeds loopback (IPv4-compatible, NAT64, 6to4, Teredo) before connecting, even with the loopback switch", async () => {
    const port = new URL(web.url).port;
    for (const host of ["[::127.0.0.1]", "[::7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "[2001:0:4136:e378:8000:63bf:80ff:fffe]"]) {
      const err = await readPage(`http://${host}:${port}/geheim`, { maxBytes: 10_000, timeoutMs: 2_000, maxChars: 1_000, allowLoopback: true }).catch(
        (e: unknown) => e,
      );
      expect(err, host).toBeInstanceOf(LookupError);
      // "refused" comes from the guard before any socket; a connection attempt would end as "failed".
      expect((err as LookupError).reason, host).toBe("refused");
      expect((err as LookupError).message, host).toMatch(/embeds 127\.0\.0\.1 .*loopback/);
    }
    expect(web.requests).toEqual([]);
  });

  it("a fetch_url tool call to an embedded metadata address (http://[::a9fe:a9fe]/) comes back to the model as an error that says why", async () => {
    const f = (fake = await startFakeAnthropic());
    const url = "http://[::a9fe:a9fe]/latest/meta-data/";
    f.reply({ text: "", toolCalls: [{ id: "toolu_c", name: "fetch_url", input: { url } }] })
      .reply("Das kann ich nicht lesen.")
      .replyAlways(NO_EXTRACTION);
    t = makeTestLilo(fakeAnthropicEnv(f, { LILO_FETCH_ALLOW_LOOPBACK: "true" }));
    const r = await t.lilo.handleMessage({ userId: "chris", text: `Lies ${url}` });
    expect(r.text).toBe("Das kann ich nicht lesen.");
    const result = (f.requests[1]!.messages.at(-1)!.content as unknown as Array<Record<string, unknown>>)[0]!;
    expect(result).toMatchObject({ type: "tool_result", tool_use_id: "toolu_c", is_error: true });
    expect(result.content).toMatch(/Das lese ich nicht: .*embeds 169\.254\.169\.254 .*link-local/);
  });
});
