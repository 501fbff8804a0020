import type { ServerResponse } from "node:http";
import { sendJson, startFakeServer, type FakeServer, type RecordedRequest } from "./http-server.ts";

/**
 * A fake Qdrant REST server on 127.0.0.1, following the documented API
 * (https://api.qdrant.tech) for the calls @qdrant/js-client-rest makes:
 *
 *   GET    /                                   version info (client compatibility check)
 *   GET    /collections                        list
 *   GET    /collections/{c}[/exists]           info / existence
 *   PUT    /collections/{c}                    create { vectors: { size, distance }, metadata }
 *   PATCH  /collections/{c}                    update (metadata merge)
 *   DELETE /collections/{c}                    drop
 *   PUT    /collections/{c}/index              payload index { field_name, field_schema }
 *   PUT    /collections/{c}/points             upsert { points: [{ id, vector, payload }] } or { batch }
 *   POST   /collections/{c}/points             retrieve { ids }
 *   POST   /collections/{c}/points/delete      { points: ids } | { filter }
 *   POST   /collections/{c}/points/query       { query: vector | { nearest }, filter, limit, offset, score_threshold, with_payload, with_vector }
 *   POST   /collections/{c}/points/search      { vector, filter, limit, offset, score_threshold, with_payload, with_vector }
 *   POST   /collections/{c}/points/scroll      { limit, offset, filter, with_payload, with_vector }
 *   POST   /collections/{c}/points/count       { filter }
 *
 * Every answer is Qdrant's envelope `{ result, status: "ok", time }`; errors are
 * `{ status: { error }, time }` with 400/404. Point ids must be unsigned
 * integers or UUIDs; Cosine vectors are normalised on upsert and scored by dot
 * product, as Qdrant does. Filters support must / should / must_not with
 * `match.value`, `match.any`, `match.except`, `has_id` and nested `filter`.
 */

export type PointId = number | string;

export interface FakeQdrantPoint {
  id: PointId;
  vector: number[];
  payload: Record<string, unknown>;
  version: number;
}

export interface FakeQdrantCollection {
  name: string;
  size: number;
  distance: string;
  metadata: Record<string, unknown> | null;
  payloadSchema: Record<string, { data_type: string; params?: unknown }>;
  points: Map<string, FakeQdrantPoint>;
}

export interface FakeQdrant extends FakeServer {
  collections: Map<string, FakeQdrantCollection>;
  /** Requests under /collections/{name}/..., for assertions. */
  requestsFor(collection: string, suffix?: string): RecordedRequest[];
}

export interface FakeQdrantOptions {
  /** Reported by GET /; default "1.18.0". */
  version?: string;
  /** When set, requests must carry this `api-key` header. */
  apiKey?: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Filter = { must?: unknown; should?: unknown; must_not?: unknown };
type Json = Record<string, unknown>;

const UUID_RE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

export async function startFakeQdrant(options: FakeQdrantOptions = {}): Promise<FakeQdrant> {
  const collections = new Map<string, FakeQdrantCollection>();
  let operationId = 0;
  let version = 0;

  const ok = (res: ServerResponse, result: unknown) => sendJson(res, 200, { result, status: "ok", time: 0.0001 });
  const updated = () => ({ operation_id: ++operationId, status: "completed" });
  const col = (name: string): FakeQdrantCollection => {
    const c = collections.get(name);
    if (!c) throw new HttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    return c;
  };

  const server = await startFakeServer((req, res) => {
    try {
      if (options.apiKey !== undefined && req.headers["api-key"] !== options.apiKey) {
        throw new HttpError(401, "Must provide an API key or an Authorization bearer token");
      }
      route(req, res);
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 500;
      sendJson(res, status, { status: { error: err instanceof Error ? err.message : String(err) }, time: 0.0001 });
    }
  });

  function route(req: RecordedRequest, res: ServerResponse): void {
    const parts = req.path.split("/").filter(Boolean).map(decodeURIComponent);
    const body = (req.body && typeof req.body === "object" ? req.body : {}) as Json;
    const m = req.method;
    if (parts.length === 0 && m === "GET") {
      sendJson(res, 200, { title: "qdrant - vector search engine", version: options.version ?? "1.18.0", commit: "fake" });
      return;
    }
    if (parts[0] !== "collections") throw new HttpError(404, `Not found: ${m} ${req.path}`);
    if (parts.length === 1 && m === "GET") return ok(res, { collections: [...collections.keys()].map((name) => ({ name })) });
    const name = parts[1]!;
    const rest = parts.slice(2).join("/");

    if (rest === "" && m === "GET") return ok(res, info(col(name)));
    if (rest === "exists" && m === "GET") return ok(res, { exists: collections.has(name) });
    if (rest === "" && m === "PUT") return ok(res, create(name, body));
    if (rest === "" && m === "PATCH") {
      const c = col(name);
      if (body.metadata && typeof body.metadata === "object") c.metadata = { ...(c.metadata ?? {}), ...(body.metadata as Json) };
      return ok(res, true);
    }
    if (rest === "" && m === "DELETE") return ok(res, collections.delete(name));
    if (rest === "index" && m === "PUT") {
      const c = col(name);
      if (typeof body.field_name !== "string") throw new HttpError(400, "Wrong input: field_name is required");
      const schema = body.field_schema;
      const type = typeof schema === "string" ? schema : (schema as Json | undefined)?.type;
      if (typeof type !== "string") throw new HttpError(400, "Wrong input: field_schema is required");
      c.payloadSchema[body.field_name] = typeof schema === "string" ? { data_type: type } : { data_type: type, params: schema };
      return ok(res, updated());
    }
    if (rest === "points" && m === "PUT") return ok(res, upsert(col(name), body));
    if (rest === "points" && m === "POST") {
      const c = col(name);
      const ids = asArray(body.ids, "ids").map(normalizeId);
      const found = ids.map((id) => c.points.get(idKey(id))).filter((p): p is FakeQdrantPoint => !!p);
      return ok(
        res,
        found.map((p) => render(p, body.with_payload ?? true, body.with_vector ?? false)),
      );
    }
    if (rest === "points/delete" && m === "POST") {
      const c = col(name);
      if (body.points !== undefined) for (const id of asArray(body.points, "points")) c.points.delete(idKey(normalizeId(id)));
      else if (body.filter !== undefined)
        for (const [k, p] of c.points)
          if (matches(body.filter as Filter, p)) c.points.delete(k);
          else throw new HttpError(400, "Wrong input: points or filter is required");
      return ok(res, updated());
    }
    if (rest === "points/query" && m === "POST") {
      const q = body.query;
      const vector = Array.isArray(q) ? q : (q as Json | undefined)?.nearest;
      if (!Array.isArray(vector)) throw new HttpError(400, "Wrong input: this fake supports only nearest-vector queries");
      return ok(res, { points: search(col(name), vector, body) });
    }
    if (rest === "points/search" && m === "POST") {
      if (!Array.isArray(body.vector)) throw new HttpError(400, "Wrong input: vector is required");
      return ok(res, search(col(name), body.vector, body));
    }
    if (rest === "points/scroll" && m === "POST") return ok(res, scroll(col(name), body));
    if (rest === "points/count" && m === "POST") {
      const c = col(name);
      return ok(res, { count: [...c.points.values()].filter((p) => matches(body.filter as Filter | undefined, p)).length });
    }
    throw new HttpError(404, `Not found: ${m} ${req.path}`);
  }

  function create(name: string, body: Json): boolean {
    if (collections.has(name)) throw new HttpError(400, `Wrong input: Collection \`${name}\` already exists!`);
    const v = body.vectors as Json | undefined;
    if (!v || typeof v.size !== "number" || !Number.isInteger(v.size) || v.size < 1) {
      throw new HttpError(400, "Wrong input: this fake supports one unnamed vector { size, distance }");
    }
    if (v.distance !== "Cosine" && v.distance !== "Dot") throw new HttpError(400, `Wrong input: unsupported distance ${String(v.distance)}`);
    const metadata = body.metadata && typeof body.metadata === "object" ? (body.metadata as Json) : null;
    collections.set(name, { name, size: v.size, distance: v.distance, metadata, payloadSchema: {}, points: new Map() });
    return true;
  }

  function info(c: FakeQdrantCollection): Json {
    const payload_schema: Json = {};
    for (const [field, s] of Object.entries(c.payloadSchema)) {
      payload_schema[field] = { ...s, points: [...c.points.values()].filter((p) => field in p.payload).length };
    }
    return {
      status: "green",
      optimizer_status: "ok",
      indexed_vectors_count: 0,
      points_count: c.points.size,
      segments_count: 1,
      config: {
        params: {
          vectors: { size: c.size, distance: c.distance },
          shard_number: 1,
          replication_factor: 1,
          write_consistency_factor: 1,
          on_disk_payload: true,
        },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
        optimizer_config: { deleted_threshold: 0.2, vacuum_min_vector_number: 1000, default_segment_number: 0, flush_interval_sec: 5 },
        wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
        quantization_config: null,
        ...(c.metadata ? { metadata: c.metadata } : {}),
      },
      payload_schema,
    };
  }

  function upsert(c: FakeQdrantCollection, body: Json): Json {
    let points: { id: unknown; vector: unknown; payload?: unknown }[];
    if (body.points !== undefined) points = asArray(body.points, "points") as typeof points;
    else if (body.batch && typeof body.batch === "object") {
      const b = body.batch as Json;
      const ids = asArray(b.ids, "batch.ids");
      const vectors = asArray(b.vectors, "batch.vectors");
      const payloads = b.payloads === undefined ? [] : asArray(b.payloads, "batch.payloads");
      points = ids.map((id, i) => ({ id, vector: vectors[i], payload: payloads[i] }));
    } else throw new HttpError(400, "Wrong input: points or batch is required");
    // Validate everything first: Qdrant applies a request all or nothing.
    const prepared = points.map((p) => {
      const id = normalizeId(p.id);
      const vector = checkVector(c, p.vector);
      const payload = p.payload && typeof p.payload === "object" ? structuredClone(p.payload as Json) : {};
      return { id, vector: c.distance === "Cosine" ? normalize(vector) : vector, payload };
    });
    for (const p of prepared) c.points.set(idKey(p.id), { ...p, version: ++version });
    return updated();
  }

  function search(c: FakeQdrantCollection, raw: unknown[], body: Json): Json[] {
    let q = checkVector(c, raw);
    if (c.distance === "Cosine") q = normalize(q);
    const limit = typeof body.limit === "number" ? body.limit : 10;
    const offset = typeof body.offset === "number" ? body.offset : 0;
    const threshold = typeof body.score_threshold === "number" ? body.score_threshold : undefined;
    const scored = [...c.points.values()]
      .filter((p) => matches(body.filter as Filter | undefined, p))
      .map((p) => ({ p, score: dot(q, p.vector) }))
      .filter((s) => threshold === undefined || s.score >= threshold)
      .sort((a, b) => b.score - a.score || compareIds(a.p.id, b.p.id));
    return scored
      .slice(offset, offset + limit)
      .map(({ p, score }) => ({ ...render(p, body.with_payload ?? false, body.with_vector ?? false), version: p.version, score }));
  }

  function scroll(c: FakeQdrantCollection, body: Json): Json {
    const limit = typeof body.limit === "number" ? body.limit : 10;
    const sorted = [...c.points.values()].filter((p) => matches(body.filter as Filter | undefined, p)).sort((a, b) => compareIds(a.id, b.id));
    const start = body.offset === undefined || body.offset === null ? 0 : sorted.findIndex((p) => compareIds(p.id, normalizeId(body.offset)) >= 0);
    const from = start < 0 ? sorted.length : start;
    const page = sorted.slice(from, from + limit);
    const next = sorted[from + limit];
    return { points: page.map((p) => render(p, body.with_payload ?? true, body.with_vector ?? false)), next_page_offset: next ? next.id : null };
  }

  function checkVector(c: FakeQdrantCollection, v: unknown): number[] {
    if (!Array.isArray(v) || !v.every((x) => typeof x === "number")) throw new HttpError(400, "Wrong input: vector must be an array of numbers");
    if (v.length !== c.size) throw new HttpError(400, `Wrong input: Vector dimension error: expected dim: ${c.size}, got ${v.length}`);
    return v as number[];
  }

  const fake = server as FakeQdrant;
  fake.collections = collections;
  fake.requestsFor = (collection, suffix = "") => server.requests.filter((r) => r.path === `/collections/${encodeURIComponent(collection)}${suffix}`);
  return fake;
}

function asArray(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new HttpError(400, `Wrong input: ${what} must be an array`);
  return v;
}

function normalizeId(id: unknown): PointId {
  if (typeof id === "number" && Number.isInteger(id) && id >= 0) return id;
  if (typeof id === "string" && UUID_RE.test(id)) {
    const h = id.replace(/-/g, "").toLowerCase();
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  throw new HttpError(400, `Wrong input: Unable to parse point id ${JSON.stringify(id)}: must be an unsigned integer or a UUID`);
}

const idKey = (id: PointId): string => (typeof id === "number" ? `n:${id}` : `u:${id}`);

/** Qdrant orders integer ids before UUIDs. */
function compareIds(a: PointId, b: PointId): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "number") return -1;
  if (typeof b === "number") return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function render(p: FakeQdrantPoint, withPayload: unknown, withVector: unknown): Json {
  const out: Json = { id: p.id };
  if (withPayload === true) out.payload = structuredClone(p.payload);
  else if (Array.isArray(withPayload)) out.payload = pick(p.payload, withPayload as string[], true);
  else if (withPayload && typeof withPayload === "object") {
    const sel = withPayload as { include?: string[]; exclude?: string[] };
    out.payload = sel.include ? pick(p.payload, sel.include, true) : pick(p.payload, sel.exclude ?? [], false);
  }
  if (withVector === true) out.vector = [...p.vector];
  return out;
}

function pick(payload: Json, keys: string[], include: boolean): Json {
  return Object.fromEntries(Object.entries(payload).filter(([k]) => keys.includes(k) === include));
}

function getPath(payload: Json, key: string): unknown {
  let cur: unknown = payload;
  for (const part of key.split(".")) cur = cur && typeof cur === "object" ? (cur as Json)[part] : undefined;
  return cur;
}

function matches(filter: Filter | null | undefined, p: FakeQdrantPoint): boolean {
  if (!filter) return true;
  const list = (v: unknown): unknown[] => (v === undefined || v === null ? [] : Array.isArray(v) ? v : [v]);
  const must = list(filter.must);
  const should = list(filter.should);
  const mustNot = list(filter.must_not);
  return must.every((c) => condition(c, p)) && (should.length === 0 || should.some((c) => condition(c, p))) && !mustNot.some((c) => condition(c, p));
}

function condition(c: unknown, p: FakeQdrantPoint): boolean {
  const cond = c as Json;
  if (Array.isArray(cond.has_id)) return cond.has_id.some((id) => idKey(normalizeId(id)) === idKey(p.id));
  if (cond.filter && typeof cond.filter === "object") return matches(cond.filter as Filter, p);
  if ("must" in cond || "should" in cond || "must_not" in cond) return matches(cond as Filter, p);
  if (typeof cond.key === "string" && cond.match && typeof cond.match === "object") {
    const actual = getPath(p.payload, cond.key);
    const values = Array.isArray(actual) ? actual : [actual];
    const match = cond.match as Json;
    if ("value" in match) return values.some((v) => v === match.value);
    if (Array.isArray(match.any)) return values.some((v) => (match.any as unknown[]).includes(v));
    if (Array.isArray(match.except)) return actual !== undefined && values.every((v) => !(match.except as unknown[]).includes(v));
  }
  throw new HttpError(400, `Wrong input: this fake does not support the condition ${JSON.stringify(c)}`);
}

function normalize(v: number[]): number[] {
  const n = Math.hypot(...v);
  return n === 0 ? [...v] : v.map((x) => x / n);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}
