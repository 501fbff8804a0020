import type { ConcernOutcome, DiaryResult, ReflectionResult } from "../../core/internal.ts";
import type { GreetingResult } from "../../core/background/greeting/greet.ts";

/** The written entry of a diary result; throws (failing the test) for any other outcome. */
export function written(r: DiaryResult): Extract<DiaryResult, { kind: "written" }> {
  if (r.kind !== "written") throw new Error(`expected a written diary entry, got ${JSON.stringify(r)}`);
  return r;
}

/** The stored thought of a reflection, if it stored one. */
export function thoughtOf(r: ReflectionResult) {
  return r.kind === "thought" ? r.thought : undefined;
}

/** The concern a reflection set, if any. */
export function concernOf(r: ReflectionResult) {
  return r.kind === "failed" ? undefined : r.concern;
}

/** Whether a greeting went out. */
export function sent(r: GreetingResult): boolean {
  return r.kind === "sent";
}

/** The topic of a concern that was opened or queued. */
export function topicIdOf(c: ConcernOutcome | undefined): number | undefined {
  return c && c.status !== "duplicate" ? c.topicId : undefined;
}
