/** What `/healthz` and `/metrics` ask of a running Lilo. */
export interface HealthApi {
  /** When the last chat turn ended (ISO time), if one ran since the start. */
  lastTurnAt(): string | undefined;
  /** User messages waiting for their answer, and after-reply jobs not yet done. */
  pending(): { inbox: number; jobs: number };
  /** Can the database be written now (false once Lilo is closed)? */
  writable(): boolean;
}
