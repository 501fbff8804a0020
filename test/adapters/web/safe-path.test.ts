import { describe, expect, it } from "vitest";
import { sameSitePath } from "../../../adapters/web/safe-path.ts";

describe("sameSitePath", () => {
  it("keeps a path on this server, with its query", () => {
    for (const ok of ["/settings", "/diary?u=alice", "/memories?q=a%2Fb"]) expect(sameSitePath(ok), ok).toBe(ok);
  });

  it("refuses what a browser reads as another site or no path: `//`, `/\\`, a tab or line break after `/`, encoded or not, a full address, a broken escape", () => {
    const bad = [
      "//evil.example/",
      "/\\evil.example/",
      "/\t/evil.example/",
      "/\n/evil.example",
      "/%5Cevil.example/",
      "/%09/evil.example",
      "%2F%2Fevil.example",
    ];
    for (const b of [...bad, "/%2F/evil.example", "https://evil.example/", "evil", "", "/%E0%A4%A"]) expect(sameSitePath(b), JSON.stringify(b)).toBeUndefined();
  });
});
