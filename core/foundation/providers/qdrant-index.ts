import { createHash } from "node:crypto";
import { REINDEX_ADVICE } from "./index-errors.ts";
import { QdrantClient } from "@qdrant/js-client-rest";
import { VectorIndexError } from "../errors.ts";
import { INDEX_STORES, type VectorHit, type VectorIndex, type VectorKey, type VectorQuery, type VectorRecord, type IndexStore } from "../ports/vector-index.ts";

export interface QdrantIndexOptions {
  /** e.g. http://127.0.0.1:6333 */
  url: string;
  apiKey?: string;
  /** Collection name; default "lilo". */
  collection?: string;
  /** Let the client compare its version with the server's (GET /) and warn; default true. */
  checkCompatibility?: boolean;
  /** Per-request timeout in ms; default 30 000. */
  timeoutMs?: number;
}

/** Points per upsert request; larger batches are split (Qdrant has no multi-request transactions). */
const UPSERT_BATCH = 256;
const SCROLL_PAGE = 256;

/**
 * Deterministic point id for (store, rowId): a UUID made from the SHA-256 of
 * "lilo:<store>:<rowId>" (version nibble 8, RFC 4122 variant). The key itself
 * travels in the payload, which is what search() and keys() read back.
 */
export function qdrantPointId(store: IndexStore, rowId: number): string {
  const h = createHash("sha256").update(`lilo:${store}:${rowId}`).digest("hex").slice(0, 32).split("");
  h[12] = "8";
  h[16] = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = h.join("");
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

interface LiloPayload {
  store: IndexStore;
  rowId: number;
  userId: string;
  embedderId: string;
}

/**
 * Vector index in a Qdrant collection (cosine). Each point's payload holds
 * store, rowId, userId and embedderId; store and userId have keyword payload
 * indexes (userId marked as tenant) and every search filters on both.
 * The collection's `metadata` (Qdrant ≥ 1.16) records `{ lilo: { embedderId,
 * dimension } }`; init() compares it and the vector size with the embedder.
 */
export class QdrantIndex implements VectorIndex {
  readonly name: string;
  private readonly options: QdrantIndexOptions;
  private readonly collection: string;
  private clientInstance: QdrantClient | undefined;
  private state: { dimension: number; embedderId: string } | undefined;

  constructor(options: QdrantIndexOptions) {
    this.options = options;
    this.collection = options.collection ?? "lilo";
    this.name = `qdrant (${options.url}, collection ${this.collection})`;
  }

  /** Created on first use so that constructing the index does no I/O. */
  private get client(): QdrantClient {
    this.clientInstance ??= new QdrantClient({
      url: this.options.url,
      ...(this.options.apiKey ? { apiKey: this.options.apiKey } : {}),
      checkCompatibility: this.options.checkCompatibility ?? true,
      timeout: this.options.timeoutMs ?? 30_000,
    });
    return this.clientInstance;
  }

  async init(dimension: number, embedderId: string): Promise<void> {
    checkDimension(dimension);
    const { exists } = await this.call("check the collection", () => this.client.collectionExists(this.collection));
    if (!exists) {
      await this.create(dimension, embedderId);
    } else {
      const info = await this.call("read the collection", () => this.client.getCollection(this.collection));
      const vectors = info.config.params.vectors as { size?: number; distance?: string } | undefined;
      const meta = (info.config.metadata as { lilo?: { embedderId?: unknown } } | null | undefined)?.lilo;
      const problems: string[] = [];
      if (vectors?.size !== dimension) problems.push(`vector size ${vectors?.size ?? "unknown (named vectors?)"} instead of ${dimension}`);
      if (vectors?.distance !== undefined && vectors.distance !== "Cosine") problems.push(`distance ${vectors.distance} instead of Cosine`);
      if (meta?.embedderId !== embedderId) {
        problems.push(
          meta?.embedderId === undefined
            ? "no embedder id in its metadata (not made by Lilo, or Qdrant older than 1.16)"
            : `vectors of "${String(meta.embedderId)}" instead of "${embedderId}"`,
        );
      }
      if (problems.length > 0) {
        throw new VectorIndexError(`Qdrant collection "${this.collection}" has ${problems.join(", ")}. ${REINDEX_ADVICE}`);
      }
      await this.ensurePayloadIndexes(Object.keys(info.payload_schema ?? {}));
    }
    this.state = { dimension, embedderId };
  }

  async reset(dimension: number, embedderId: string): Promise<void> {
    checkDimension(dimension);
    this.state = undefined;
    const { exists } = await this.call("check the collection", () => this.client.collectionExists(this.collection));
    if (exists) await this.call("delete the collection", () => this.client.deleteCollection(this.collection));
    await this.create(dimension, embedderId);
    this.state = { dimension, embedderId };
  }

  async upsert(records: VectorRecord<IndexStore>[]): Promise<void> {
    const { dimension, embedderId } = this.ready();
    const points = records.map((r) => {
      if (r.vector.length !== dimension) {
        throw new VectorIndexError(`Vector for ${r.store}#${r.rowId} has ${r.vector.length} dimensions, the index expects ${dimension}`);
      }
      const payload: LiloPayload = { store: r.store, rowId: r.rowId, userId: r.userId, embedderId };
      return { id: qdrantPointId(r.store, r.rowId), vector: Array.from(r.vector), payload: { ...payload } };
    });
    for (let i = 0; i < points.length; i += UPSERT_BATCH) {
      const batch = points.slice(i, i + UPSERT_BATCH);
      await this.call("upsert vectors", () => this.client.upsert(this.collection, { wait: true, points: batch }));
    }
  }

  async delete(keys: VectorKey<IndexStore>[]): Promise<void> {
    this.ready();
    if (keys.length === 0) return;
    const ids = keys.map((k) => qdrantPointId(k.store, k.rowId));
    await this.call("delete vectors", () => this.client.delete(this.collection, { wait: true, points: ids }));
  }

  async search<S extends IndexStore>(query: VectorQuery<S>): Promise<VectorHit<S>[]> {
    const { dimension } = this.ready();
    if (query.vector.length !== dimension) {
      throw new VectorIndexError(`Query vector has ${query.vector.length} dimensions, the index expects ${dimension}`);
    }
    const limit = Math.floor(query.k);
    if (!(limit > 0)) return [];
    const res = await this.call("search vectors", () =>
      this.client.query(this.collection, {
        query: Array.from(query.vector),
        filter: {
          must: [
            { key: "store", match: { value: query.store } },
            { key: "userId", match: { value: query.userId } },
            ...(query.rowIds ? [{ has_id: query.rowIds.map((id) => qdrantPointId(query.store, id)) }] : []),
          ],
          ...(query.excludeRowIds?.length ? { must_not: [{ has_id: query.excludeRowIds.map((id) => qdrantPointId(query.store, id)) }] } : {}),
        },
        limit,
        ...(query.minScore !== undefined ? { score_threshold: query.minScore } : {}),
        with_payload: true,
        with_vector: false,
      }),
    );
    return res.points.flatMap((p) => {
      const key = toKey(p.payload);
      // Defence in depth: never hand out another user's or store's row.
      if (!key || key.userId !== query.userId || key.store !== query.store) return [];
      return [{ ...key, store: query.store, score: p.score }];
    });
  }

  async keys(): Promise<VectorKey<IndexStore>[]> {
    this.ready();
    const out: VectorKey<IndexStore>[] = [];
    let offset: string | number | undefined;
    for (;;) {
      const page = await this.call("list vector keys", () =>
        this.client.scroll(this.collection, { limit: SCROLL_PAGE, with_payload: true, with_vector: false, ...(offset !== undefined ? { offset } : {}) }),
      );
      for (const p of page.points) {
        const key = toKey(p.payload);
        if (key) out.push(key);
      }
      const next = page.next_page_offset;
      if (next === null || next === undefined || (typeof next !== "string" && typeof next !== "number")) break;
      offset = next;
    }
    return out;
  }

  async close(): Promise<void> {
    this.state = undefined;
    this.clientInstance = undefined;
  }

  private ready(): { dimension: number; embedderId: string } {
    if (!this.state) throw new VectorIndexError("The vector index is not initialised; call init() first");
    return this.state;
  }

  private async create(dimension: number, embedderId: string): Promise<void> {
    // QdrantClient.createCollection() drops `metadata`, so call the REST API directly.
    await this.call("create the collection", () =>
      this.client.api().createCollection({
        collection_name: this.collection,
        vectors: { size: dimension, distance: "Cosine" },
        metadata: { lilo: { embedderId, dimension } },
      }),
    );
    await this.ensurePayloadIndexes([]);
  }

  private async ensurePayloadIndexes(existing: string[]): Promise<void> {
    if (!existing.includes("store")) {
      await this.call("index the store field", () =>
        this.client.createPayloadIndex(this.collection, { field_name: "store", field_schema: "keyword", wait: true }),
      );
    }
    if (!existing.includes("userId")) {
      await this.call("index the userId field", () =>
        this.client.createPayloadIndex(this.collection, { field_name: "userId", field_schema: { type: "keyword", is_tenant: true }, wait: true }),
      );
    }
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new VectorIndexError(`Qdrant: cannot ${what} (collection "${this.collection}"): ${describeQdrantError(err)}`, { cause: err });
    }
  }
}

function toKey(payload: unknown): VectorKey<IndexStore> | undefined {
  const p = payload as Partial<LiloPayload> | null | undefined;
  if (!p || typeof p.rowId !== "number" || typeof p.userId !== "string") return undefined;
  if (!(INDEX_STORES as readonly string[]).includes(p.store as string)) return undefined;
  return { store: p.store as IndexStore, rowId: p.rowId, userId: p.userId };
}

function checkDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension <= 0) throw new VectorIndexError(`Invalid vector dimension ${dimension}`);
}

/** The client's ApiError carries Qdrant's `{ status: { error } }` body in `data`. */
function describeQdrantError(err: unknown): string {
  const e = err as { status?: number; data?: { status?: { error?: string } }; message?: string; cause?: { code?: string } } | undefined;
  const detail = e?.data?.status?.error;
  if (detail) return `${e?.status ?? ""} ${detail}`.trim();
  const code = e?.cause?.code;
  return [e?.message ?? String(err), code].filter(Boolean).join(" ");
}
