/** @jsxImportSource hono/jsx */
/**
 * "Bring your history" on the pages: upload a chat export, see what `lilo.history.plan` found (counts,
 * dates, speakers and what each becomes, the extraction's cost) with nothing written, then confirm (a
 * CSRF-protected POST) to import it; the memories follow in the background. The uploaded bytes wait
 * in memory between preview and confirmation, for the same viewer only, for a short while.
 */
import type { Hono } from "hono";
import { randomBytes } from "node:crypto";
import { formatMoney, type HistoryDryRun } from "../../../core/internal.ts";
import { describeError, type Lilo } from "../../../core/index.ts";
import { Csrf, Notice } from "../layout.tsx";
import { attempt, page } from "../respond.tsx";
import { href, type Viewer, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";
import { HISTORY_TEXTS, type HistoryTexts } from "./history-texts.ts";

/** How long an uploaded export waits for its confirmation. */
const UPLOAD_TTL_MS = 30 * 60_000;

/** An upload between preview and confirmation. */
interface Upload {
  userId: string;
  fileName: string;
  bytes: Uint8Array;
  at: number;
}

function Form({ v, h }: { v: Viewer; h: HistoryTexts }) {
  return (
    <form method="post" action={href(v, "/history/preview")} enctype="multipart/form-data" class="panel history-upload">
      <Csrf v={v} />
      <label>
        {h.file} <input type="file" name="file" required />
      </label>
      <label>
        {h.me} <input type="text" name="me" />
      </label>
      <button type="submit">{h.preview}</button>
    </form>
  );
}

function Imports({ v, lilo, h }: { v: Viewer; lilo: Lilo; h: HistoryTexts }) {
  const imports = lilo.history.list(v.userId);
  const progress = new Map(lilo.history.extracting(v.userId).map((p) => [p.importId, p]));
  if (!imports.length) return <p class="hint">{h.none}</p>;
  return (
    <ul class="items history-imports">
      {imports.map((r) => {
        const p = progress.get(r.id);
        return (
          <li class="item">
            <p class="text">
              {r.id} · {r.fileName} · {r.format} · {h.count(r.messages)}
              {r.undoneAt ? ` (${h.undone})` : ""}
            </p>
            {p && (
              <p class="meta">
                {h.extracting(p.done, p.total)}
                {p.paused ? ` · ${h.paused(p.paused)}` : ""}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** The preview: what the dry run found, and either the confirmation or the question who the person is. */
function Preview({ v, h, plan, token, currency }: { v: Viewer; h: HistoryTexts; plan: HistoryDryRun; token: string; currency: string }) {
  const e = plan.estimate;
  const price = !e.model ? h.noModel : e.cost === undefined ? h.noPrice : `≈ ${formatMoney(e.cost, currency, v.t.lang)} (${e.model})`;
  const total = plan.chats.reduce((n, c) => n + c.messages, 0);
  return (
    <>
      <h2>{h.previewTitle}</h2>
      <dl class="history-preview">
        <dt>{h.format}</dt>
        <dd class="format">{plan.format}</dd>
        <dt>{h.chats}</dt>
        <dd>{plan.chats.length}</dd>
        <dt>{h.messages}</dt>
        <dd class="messages">{total}</dd>
        <dt>{h.range}</dt>
        <dd class="range">
          {plan.from.slice(0, 10)} … {plan.to.slice(0, 10)}
        </dd>
        <dt>{h.newMessages}</dt>
        <dd class="new">{plan.newMessages}</dd>
        <dt>{h.skipped}</dt>
        <dd>{plan.skipped}</dd>
      </dl>
      <h3>{h.speakers}</h3>
      <ul class="speakers">
        {plan.speakers.map((s) => (
          <li>
            {s.name}: {s.messages} → {h.becomes[s.as]}
          </li>
        ))}
      </ul>
      {plan.me !== undefined && plan.newMessages > 0 && <p class="cost">{h.cost(e.calls, e.inputTokens + e.outputTokens, price)}</p>}
      {plan.me !== undefined && plan.newMessages === 0 && <Notice text={h.nothingNew} />}
      <form method="post" action={href(v, "/history/import")} class="confirm">
        <Csrf v={v} />
        <input type="hidden" name="upload" value={token} />
        {plan.me === undefined && <p class="question">{h.whoAreYou}</p>}
        <select name="me">
          {plan.speakers
            .filter((s) => s.as !== "assistant")
            .map((s) => (
              <option value={s.name} selected={s.name === plan.me}>
                {s.name}
              </option>
            ))}
        </select>
        {plan.me !== undefined && plan.newMessages > 0 ? (
          <button type="submit">{h.confirm}</button>
        ) : (
          <button type="submit" formaction={href(v, "/history/preview")}>
            {h.again}
          </button>
        )}
      </form>
    </>
  );
}

/** The history import pages: the list with the upload form, the preview, and the import. */
export function registerHistory(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  const uploads = new Map<string, Upload>();
  const h = HISTORY_TEXTS[lilo.config.persona.language];
  const currency = lilo.config.costs.currency;
  const keep = (u: Upload): string => {
    const now = Date.now();
    for (const [k, old] of uploads) if (now - old.at > UPLOAD_TTL_MS || old.userId === u.userId) uploads.delete(k);
    const token = randomBytes(16).toString("base64url");
    uploads.set(token, u);
    return token;
  };
  const taken = (c: WebContext, token: string): Upload | undefined => {
    const u = uploads.get(token);
    return u && u.userId === c.get("viewer").userId && Date.now() - u.at <= UPLOAD_TTL_MS ? u : undefined;
  };
  const preview = (c: WebContext, u: Upload, token: string, me: string) => {
    const v = c.get("viewer");
    const plan = lilo.history.plan(u.bytes, { fileName: u.fileName, userId: v.userId, me: me || undefined });
    return page(c, "history", h.title, <Preview v={v} h={h} plan={plan} token={token} currency={currency} />);
  };

  app.get("/history", (c) => {
    const v = c.get("viewer");
    const done = c.req.query("import");
    const added = c.req.query("added");
    return page(
      c,
      "history",
      h.title,
      <>
        {done && <Notice text={h.imported(Number(done), Number(added ?? 0))} />}
        <p class="hint">{h.intro}</p>
        <Form v={v} h={h} />
        <h2>{h.imports}</h2>
        <Imports v={v} lilo={lilo} h={h} />
      </>,
    );
  });

  app.post("/history/preview", (c) =>
    attempt(c, async () => {
      const body = await c.req.parseBody();
      const me = typeof body.me === "string" ? body.me.trim() : "";
      const file = body.file;
      if (file instanceof File) {
        const u: Upload = { userId: c.get("viewer").userId, fileName: file.name || "export", bytes: new Uint8Array(await file.arrayBuffer()), at: Date.now() };
        return preview(c, u, keep(u), me);
      }
      const token = typeof body.upload === "string" ? body.upload : "";
      const u = taken(c, token);
      return u ? preview(c, u, token, me) : page(c, "history", h.title, <Notice text={h.expired} kind="error" />);
    }),
  );

  app.post("/history/import", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const body = await c.req.parseBody();
      const token = typeof body.upload === "string" ? body.upload : "";
      const me = typeof body.me === "string" ? body.me.trim() : "";
      const u = taken(c, token);
      if (!u) return page(c, "history", h.title, <Notice text={h.expired} kind="error" />);
      const plan = lilo.history.plan(u.bytes, { fileName: u.fileName, userId: v.userId, me: me || undefined });
      await lilo.backup.create();
      const done = lilo.history.apply(plan);
      uploads.delete(token);
      // The memories follow in this process; a stop or a kill leaves them to the bot's next start.
      void lilo.history.extract().catch((err: unknown) => lilo.logger.error("history extraction failed", { error: describeError(err) }));
      return c.redirect(href(v, "/history", { import: done.id, added: done.added }), 303);
    }),
  );
}
