import { describe, expect, it } from "vitest";
import { startFakeQdrant } from "../fakes/fake-qdrant.ts";
import { makeTestLilo } from "../helpers/test-lilo.ts";

/** What Lilo sends to a Qdrant server: vectors and ids, never the text of a memory (Qdrant's disk is not encrypted by Lilo). */
describe("Qdrant payloads", () => {
  it("hold ids only: store, row id, user id and embedding model, no text", async () => {
    const fake = await startFakeQdrant();
    const t = makeTestLilo({ LILO_VECTOR_BACKEND: "qdrant", QDRANT_URL: fake.url, QDRANT_COLLECTION: "atrest" });
    try {
      await t.lilo.memory.add({ text: "Mirabellen vom Nachbarn", userId: "chris" });
      await t.lilo.memory.add({ text: "Jorinde klettert in Tromsø", userId: "chris", store: "important" });
      const points = [...fake.collections.get("atrest")!.points.values()];
      expect(points.length).toBe(2);
      for (const p of points) expect(Object.keys(p.payload).sort()).toEqual(["embedderId", "rowId", "store", "userId"]);
      const sent = JSON.stringify(fake.requestsFor("atrest"));
      expect(sent).not.toContain("Mirabellen");
      expect(sent).not.toContain("Jorinde");
    } finally {
      await t.cleanup();
      await fake.close();
    }
  });
});
