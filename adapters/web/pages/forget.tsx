/** @jsxImportSource hono/jsx */
/**
 * "Forget everywhere" on the pages: the forget button of a memory (`/forget/N12`) or the
 * words form of the memories page (`/forget?q=…`) shows what `lilo.forget` found in every store of the
 * viewer's user — notes, important memories, profile, thoughts, diary, topics, summaries, chat messages —
 * in the words the chat's yes/no question uses; "yes" (a CSRF-protected POST) forgets exactly what was
 * shown and still holds it, "no" goes back and changes nothing.
 */
import type { Hono } from "hono";
import { itemRef, type ForgetItem, type ForgetOutcome, type ForgetPlan } from "../../../core/internal.ts";
import { type Lilo } from "../../../core/index.ts";
import { Csrf, Notice } from "../layout.tsx";
import { attempt, notFound, page } from "../respond.tsx";
import { href, type Viewer, type WebContext, type WebDeps, type WebEnv } from "../viewer.ts";

/** What a confirmation was asked for: one item by reference, or some words. */
type Target = { ref: string } | { q: string };

/** The page each kind of item is listed on, where a forget started from it returns to. */
const PAGE_OF: Partial<Record<ForgetItem["kind"], string>> = {
  notes: "/memories",
  important: "/important",
  thoughts: "/thoughts",
  diary: "/diary",
  profile: "/profile",
  messages: "/receipts",
};
type RefKind = Parameters<typeof itemRef>[0];
const REF_KINDS = new Set<string>(["notes", "important", "thoughts", "diary", "profile", "messages"]);

/** A plan item's key in the confirmation form. */
const keyOf = (i: Pick<ForgetItem, "kind" | "id">) => `${i.kind}:${i.id}`;

/** The plan for a target, always of the viewer's user (the operator's chosen one); undefined: not theirs. */
async function planFor(lilo: Lilo, v: Viewer, target: Target): Promise<ForgetPlan | undefined> {
  return "ref" in target ? lilo.forget.findItem(v.userId, target.ref) : lilo.forget.find(v.userId, target.q);
}

/** Where to go afterwards (and on "no"): the page of the item the forget started from, else the memories. */
function pageAfter(plan: ForgetPlan, target: Target): string {
  if (!("ref" in target)) return "/memories";
  const ref = target.ref.trim().toUpperCase();
  const own = plan.items.find((i) => REF_KINDS.has(i.kind) && itemRef(i.kind as RefKind, i.id) === ref);
  return (own && PAGE_OF[own.kind]) ?? "/memories";
}

/** The notice after a forget, from the counts the redirect carries. */
export function ForgottenNotice({ c }: { c: WebContext }) {
  if (c.req.query("done") !== "forgotten") return null;
  const n = (k: string) => Number(c.req.query(k) ?? 0) || 0;
  return <Notice text={c.get("viewer").t.forgottenCounts(n("removed"), n("rewritten"), n("redacted"))} />;
}

/** The words form of the memories page: shows what holds them before anything goes. */
export function ForgetWordsForm({ v }: { v: Viewer }) {
  return (
    <form method="get" action="/forget" class="search forget-words">
      {v.operator && <input type="hidden" name="u" value={v.userId} />}
      <input type="search" name="q" placeholder={v.t.forgetWordsPlaceholder} aria-label={v.t.forgetWords} required />
      <button type="submit" class="danger">
        {v.t.forgetWordsButton}
      </button>
    </form>
  );
}

/** The confirmation: the chat's question text, every place in detail, yes (POST) and no (back). */
function Confirm({ v, lilo, plan, target, back }: { v: Viewer; lilo: Lilo; plan: ForgetPlan; target: Target; back: string }) {
  return (
    <>
      <p class="question forget-question">{lilo.forget.describe(plan)}</p>
      <p class="hint">{v.t.forgetIntro}</p>
      <details class="panel">
        <summary>{v.t.forgetDetails(plan.items.length)}</summary>
        <ul class="items forget-items">
          {plan.items.map((i) => (
            <li class="item" data-kind={i.kind}>
              <p class="text">{i.text}</p>
              <div class="meta">
                <span>
                  <span class="badge">{lilo.forget.kindName(i.kind)}</span> #{i.id} · {v.t.forgetMatches[i.match]}
                </span>
                <span>{v.t.forgetActions[i.action]}</span>
              </div>
            </li>
          ))}
        </ul>
      </details>
      <form method="post" action={href(v, "/forget")} class="confirm">
        <Csrf v={v} />
        {"ref" in target ? <input type="hidden" name="ref" value={target.ref} /> : <input type="hidden" name="q" value={target.q} />}
        {plan.items.map((i) => (
          <input type="hidden" name="item" value={keyOf(i)} />
        ))}
        <button type="submit" class="danger">
          {v.t.forgetConfirm}
        </button>
        <a href={href(v, back)} class="keep">
          {v.t.forgetKeep}
        </a>
      </form>
    </>
  );
}

/** Forget everywhere: the confirmation pages and the yes. */
export function registerForget(app: Hono<WebEnv>, { lilo }: WebDeps): void {
  const confirmPage = async (c: WebContext, target: Target) => {
    const v = c.get("viewer");
    const plan = await planFor(lilo, v, target);
    if (!plan) return notFound(c);
    const back = pageAfter(plan, target);
    if (plan.items.length === 0)
      return page(
        c,
        "memories",
        v.t.forgetTitle,
        <>
          <Notice text={lilo.forget.nothingFound} />
          <a href={href(v, back)}>{v.t.cancel}</a>
        </>,
      );
    return page(c, "memories", v.t.forgetTitle, <Confirm v={v} lilo={lilo} plan={plan} target={target} back={back} />);
  };

  app.get("/forget", (c) => {
    const q = (c.req.query("q") ?? "").trim();
    // Words of no meaning (a letter, a stop word) are refused by the core with a sentence: shown as a bad input, not a crash.
    return q ? attempt(c, () => confirmPage(c, { q })) : c.redirect(href(c.get("viewer"), "/memories"), 303);
  });
  app.get("/forget/:ref", (c) => confirmPage(c, { ref: c.req.param("ref") }));

  app.post("/forget", (c) =>
    attempt(c, async () => {
      const v = c.get("viewer");
      const body = await c.req.parseBody({ all: true });
      const one = (k: string) => (typeof body[k] === "string" ? body[k].trim() : "");
      const target: Target | undefined = one("ref") ? { ref: one("ref") } : one("q") ? { q: one("q") } : undefined;
      const plan = target && (await planFor(lilo, v, target));
      if (!target || !plan) return notFound(c);
      // Found again for this user: only what the page showed and still holds it goes (nothing of another user can be named here).
      const shown = new Set(([] as unknown[]).concat(body.item ?? []).map(String));
      const items = plan.items.filter((i) => shown.has(keyOf(i)));
      if (items.length === 0) return notFound(c);
      const outcome: ForgetOutcome = await lilo.forget.apply({ userId: plan.userId, words: plan.words, items });
      const { removed, rewritten, redacted } = outcome;
      return c.redirect(href(v, pageAfter(plan, target), { done: "forgotten", removed, rewritten, redacted }), 303);
    }),
  );
}
