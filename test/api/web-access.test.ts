import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANY_USER, fixedClock } from "../../core/index.ts";
import { readDb } from "../helpers/read-db.ts";
import { makeTestLilo, type TestLilo } from "../helpers/test-lilo.ts";

/** lilo.webAccess: one-time links and sessions of Lilo's pages, on a real SQLite file and a clock the test moves. */
describe("web access: login links and sessions", () => {
  const clock = fixedClock("2026-12-03T10:00:00Z");
  let t: TestLilo;
  beforeAll(() => {
    t = makeTestLilo({}, { clock });
  });
  afterAll(() => t.cleanup());

  it("stores only hashes: neither a link's nor a session's token is in the database", () => {
    const link = t.lilo.webAccess.issueLink("chris", 10);
    const r = t.lilo.webAccess.redeem(link.token, 1);
    if (!r.ok) throw new Error(r.reason);
    const rows = JSON.stringify(readDb(t.lilo).all("SELECT * FROM web_tokens"));
    expect(rows).not.toContain(link.token);
    expect(rows).not.toContain(r.session.token);
    expect(link.token).toMatch(/^[\w-]{43}$/);
  });

  it("web access lasts only as long as granted: a link opens one session once within its minutes, a session ends after its hours or on logout", () => {
    const link = t.lilo.webAccess.issueLink(ANY_USER, 10);
    expect(t.lilo.webAccess.linkState(link.token)).toBe("valid");
    const r = t.lilo.webAccess.redeem(link.token, 2);
    if (!r.ok) throw new Error(r.reason);
    expect(r.owner).toBe(ANY_USER);
    expect(t.lilo.webAccess.redeem(link.token, 2)).toEqual({ ok: false, reason: "used" });
    expect(t.lilo.webAccess.session(r.session.token)).toBe(ANY_USER);
    // A link is no session, and a session is no link.
    expect(t.lilo.webAccess.session(link.token)).toBeUndefined();
    expect(t.lilo.webAccess.redeem(r.session.token, 2)).toEqual({ ok: false, reason: "unknown" });

    const late = t.lilo.webAccess.issueLink("chris", 10);
    clock.advance(10 * 60_000);
    expect(t.lilo.webAccess.linkState(late.token)).toBe("expired");
    expect(t.lilo.webAccess.redeem(late.token, 2)).toEqual({ ok: false, reason: "expired" });
    clock.advance(2 * 3600_000);
    expect(t.lilo.webAccess.session(r.session.token)).toBeUndefined();

    const again = t.lilo.webAccess.redeem(t.lilo.webAccess.issueLink("chris", 10).token, 2);
    if (!again.ok) throw new Error(again.reason);
    t.lilo.webAccess.endSession(again.session.token);
    expect(t.lilo.webAccess.session(again.session.token)).toBeUndefined();
  });

  it("forgets expired tokens after a day, so the table does not grow", () => {
    clock.advance(48 * 3600_000);
    t.lilo.webAccess.issueLink("chris", 10);
    expect(readDb(t.lilo).all("SELECT * FROM web_tokens")).toHaveLength(1);
  });
});
