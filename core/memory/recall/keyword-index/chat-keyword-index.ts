/**
 * The chat log's keyword ranking in memory: a keyword index
 * (keyword-index.ts) over the rows of `messages_ctx_user_fts`
 * (chat-keyword-rows.ts), one partition per user, answering the chat-log
 * search's ranked candidates with its filters (forgotten, the running
 * conversation, time bounds) as FTS5 would.
 */
import type { CandidateFilter, CandidateRow, ChatRanker } from "../../../foundation/store/chat-search.ts";
import type { ChatKeywordRows } from "../../../foundation/store/chat-keyword-rows.ts";
import { KeywordIndex, type KeywordIndexOptions } from "./keyword-index.ts";

export class ChatKeywordIndex extends KeywordIndex implements ChatRanker {
  constructor(rows: ChatKeywordRows, options: KeywordIndexOptions) {
    super(rows, options);
  }

  /** The user's matching messages best first, filtered; undefined: FTS5 must answer (index not ready, query or bounds not of the kind ported). */
  candidates(f: CandidateFilter): IterableIterator<CandidateRow> | undefined {
    return f.match === undefined ? undefined : this.rank(f.userId, f.match, f.contextWeight, f);
  }
}
