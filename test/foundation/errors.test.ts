import { describe, expect, expectTypeOf, it } from "vitest";
import { AnalysisError, ConfigError, LiloError, LookupError, NotFoundError, ProviderError, type ErrorCode, type TurnResult } from "../../core/index.ts";

describe("typed errors", () => {
  it("each error class carries its own code, with the cause attached", () => {
    const cause = new Error("socket closed");
    expect(new ConfigError("LILO_X is wrong").code).toBe("config");
    expect(new ProviderError("down", { provider: "anthropic", retryable: true, cause })).toMatchObject({ code: "provider", cause });
    expect(new NotFoundError("no note #3").code).toBe("not-found");
    expect(new LookupError("refused", "private address").code).toBe("lookup");
    expect(new AnalysisError("nothing selected").code).toBe("analysis");
    expect(new LiloError("invalid-input", "empty")).toBeInstanceOf(Error);
  });

  it("a turn's error code is one of the ErrorCode union", () => {
    expectTypeOf<ConfigError["code"]>().toEqualTypeOf<"config">();
    expectTypeOf<"config" | "provider" | "not-found" | "internal">().toMatchTypeOf<ErrorCode>();
    expectTypeOf<NonNullable<TurnResult["error"]>["code"]>().toEqualTypeOf<ErrorCode>();
    // A code outside the union does not compile.
    // @ts-expect-error "typo" is no ErrorCode
    expect(new LiloError("typo", "x").code).toBe("typo");
  });
});
