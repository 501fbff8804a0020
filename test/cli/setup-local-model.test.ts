import { describe, expect, it } from "vitest";
import { LOCAL_MODELS } from "../../core/internal.ts";
import { LOCAL_MODEL_CATALOGUE } from "../../admin-cli/commands/setup.ts";
import { modelChoices, type ModelChoice } from "../../admin-cli/setup/model-choices.ts";

describe("lilo setup offers Lilo's own model", () => {
  it("offers the local provider's catalogue with each download size, writing local:<name>", async () => {
    expect(LOCAL_MODEL_CATALOGUE.map((m) => m.name)).toEqual(LOCAL_MODELS.map((m) => m.name));
    expect(LOCAL_MODEL_CATALOGUE[0]!.size).toMatch(/^\d+\.\d GB$/);
    const own = modelChoices(LOCAL_MODEL_CATALOGUE).find((c: ModelChoice) => c.name === "local");
    expect(own).toBeDefined();
    let offered: { name: string; label: string }[] = [];
    const asker = {
      choose: (_q: string, options: { name: string; label: string }[]) => {
        offered = options;
        return Promise.resolve(1);
      },
    };
    const lines = await own!.ask({ asker, t: { localModel: "Lilo's own model" } } as unknown as Parameters<ModelChoice["ask"]>[0]);
    expect(offered[0]!.label).toContain(LOCAL_MODELS[0]!.licence);
    expect(lines).toEqual({ LILO_CHAT_MODEL: `local:${LOCAL_MODELS[1]!.name}` });
  });
});
