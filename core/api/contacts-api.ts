import type { ContactStatus } from "../foundation/health/contacts.ts";

/** Last successful contact (and last failure) of each adapter and model (`lilo status`). */
export interface ContactsApi {
  /** `name` (an adapter, a model) answered. */
  ok(name: string): void;
  /** `name` could not be reached or failed; `error` is stored redacted. */
  failed(name: string, error: string): void;
  /** Every service contacted so far, by name. */
  list(): ContactStatus[];
}
