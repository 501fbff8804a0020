/**
 * A question about several things ("What have Caroline and Melanie both
 * painted?") should bring each thing's evidence to the top — but the whole
 * question's ranking usually does that already, and weaving every part's
 * own hits into its head would push out the whole question's own good hits.
 * So a part gets a place only where it is missing: when its own best hits
 * are not among the first `window` of the whole ranking, they join the head
 * right after the whole question's best hit, and the head's last hits move
 * down.
 */

/** How parts are placed: how many of each part's best hits the head must hold, and how long the head is. */
export interface PartQuota {
  /** Best hits of each part the head must hold (0 = the parts add nothing to the head). */
  quota: number;
  /** The head: the first hits of the ranking, the ones a sheet and a reader look at first. */
  window: number;
}

/**
 * The whole question's ranking (ids, best first) with each part's best
 * `quota` hits that its first `window` lack placed right after its first hit
 * (in part order); every other hit keeps its order, and hits only a part
 * found follow the whole ranking.
 */
export function withPartQuota(main: number[], parts: number[][], { quota, window }: PartQuota): number[] {
  const head = new Set(main.slice(0, window));
  const added = new Set<number>();
  if (quota > 0) for (const part of parts) for (const id of part.slice(0, quota)) if (!head.has(id)) added.add(id);
  const rest = main.filter((id) => !added.has(id));
  const out = [...rest.slice(0, 1), ...added, ...rest.slice(1)];
  // Hits only a part found follow, each once.
  return [...new Set([...out, ...parts.flat()])];
}
