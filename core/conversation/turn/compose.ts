import { LiloError } from "../../foundation/errors.ts";
import type { TurnContext, TurnMiddleware } from "./types.ts";

/**
 * Chains middleware into one function, as Hono's `compose` and grammY's
 * Composer do: each gets `next`, which runs the rest; one that does not call
 * it ends the turn there. Calling `next` twice is a bug and throws.
 */
export function compose(middleware: readonly TurnMiddleware[]): (ctx: TurnContext) => Promise<void> {
  return (ctx) => {
    let last = -1;
    const dispatch = async (i: number): Promise<void> => {
      if (i <= last) throw new LiloError("internal", `turn middleware "${middleware[i - 1]?.name}" called next() twice`);
      last = i;
      const mw = middleware[i];
      if (mw) await mw.run(ctx, () => dispatch(i + 1));
    };
    return dispatch(0);
  };
}
