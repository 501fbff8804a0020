import { afterEach, describe, expect, it } from "vitest";
import { promMetrics } from "../../../adapters/service/metrics.ts";
import { startHealthServer, type HealthServer } from "../../../adapters/service/health-server.ts";
import { silentLogger } from "../../../core/index.ts";
import { startFakeAnthropic, type FakeAnthropic } from "../../fakes/fake-anthropic.ts";
import { fakeAnthropicEnv, isExtraction, makeTestLilo, NO_EXTRACTION, type TestLilo } from "../../helpers/test-lilo.ts";
import { parsePrometheus, total } from "../../helpers/prometheus-text.ts";

/** `/healthz` and `/metrics` of a Lilo in a temp folder, its chat model a fake Anthropic server. */
describe("health and metrics server", () => {
  let llm: FakeAnthropic | undefined;
  let t: TestLilo | undefined;
  let server: HealthServer | undefined;

  const start = async () => {
    llm = await startFakeAnthropic();
    llm.replyAlways((body) => (isExtraction(body.system) ? NO_EXTRACTION : "Schön, dass du schreibst, Christian."));
    const metrics = promMetrics();
    t = makeTestLilo(fakeAnthropicEnv(llm), { metrics: metrics.port });
    server = await startHealthServer(t.lilo, silentLogger, { host: "127.0.0.1", port: 0, metrics, adapters: ["telegram"] });
    const url = `http://127.0.0.1:${server.port}`;
    return { lilo: t.lilo, get: (path: string) => fetch(`${url}${path}`) };
  };
  afterEach(async () => {
    await server?.close();
    await t?.cleanup().catch(() => undefined);
    await llm?.close();
  });

  it("/healthz answers 200 with ok, uptime, the adapters, the last turn, the backlog and a writable database", async () => {
    const { lilo, get } = await start();
    await lilo.handleMessage({ userId: "chris", text: "Hallo Lilo", transport: "telegram" });
    const res = await get("/healthz");
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ ok: true, status: "running", adapters: [{ name: "telegram" }], inboxPending: 0, databaseWritable: true });
    expect(typeof body.uptimeSeconds).toBe("number");
    expect(typeof body.lastTurnAt).toBe("string");
    expect(typeof body.jobsPending).toBe("number");
  });

  it("/healthz answers 503 once the process is stopping, and says why", async () => {
    const { get } = await start();
    server!.stopping();
    const res = await get("/healthz");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, status: "stopping", databaseWritable: true });
  });

  it("/healthz answers 503 when the database cannot be written", async () => {
    const { lilo, get } = await start();
    await lilo.close();
    const res = await get("/healthz");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ ok: false, status: "running", databaseWritable: false });
  });

  it("/metrics parses as Prometheus text, lilo_model_calls_total and the turn histogram rise after a turn, and no label holds a user id, name or text", async () => {
    const { lilo, get } = await start();
    const before = parsePrometheus(await (await get("/metrics")).text());
    expect(total(before, "lilo_model_calls_total")).toBe(0);
    await lilo.handleMessage({ userId: "chris", text: "Hallo Lilo, ich trinke gern Tee", transport: "telegram" });
    await lilo.idle();
    const res = await get("/metrics");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const after = parsePrometheus(text);
    expect(total(after, "lilo_model_calls_total", { role: "chat", model: "anthropic:claude-test" })).toBe(1);
    expect(total(after, "lilo_model_tokens_total", { role: "chat", kind: "output" })).toBeGreaterThan(0);
    expect(total(after, "lilo_turn_duration_seconds_count", { adapter: "telegram" })).toBe(1);
    // Declared from the start, with samples once something is counted (a labelled counter has none before).
    for (const name of ["lilo_model_errors_total", "lilo_push_sent_total", "lilo_inbox_pending", "lilo_jobs_pending", "process_cpu_user_seconds_total"])
      expect(text).toMatch(new RegExp(`^# TYPE ${name} (counter|gauge)$`, "m"));
    expect(total(after, "lilo_inbox_pending")).toBe(0);
    const labelValues = after.flatMap((s) => Object.values(s.labels)).join(" ");
    for (const personal of ["chris", "Christian", "Tee", "Hallo"]) expect(labelValues).not.toContain(personal);
  });

  it("a failed model call counts in lilo_model_errors_total by role and model", async () => {
    const { lilo, get } = await start();
    llm!.fail(400, 1);
    await lilo.handleMessage({ userId: "chris", text: "Hallo", transport: "telegram" });
    const after = parsePrometheus(await (await get("/metrics")).text());
    expect(total(after, "lilo_model_errors_total", { role: "chat", model: "anthropic:claude-test" })).toBe(1);
  });
});
