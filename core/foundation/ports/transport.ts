/** A message Lilo sends on her own (greeting, concern, diary ping, test push, a reminder the person asked for). */
export interface PushMessage {
  kind: "greeting" | "concern" | "diary" | "test" | "question" | "budget" | "reminder";
  text: string;
  /** A reminder's id, so the adapter can put its buttons (done, snooze, delete) under it. */
  reminderId?: number;
}

/** Where a user opted in to receive pushes: a transport and a chat on it. */
export interface PushTarget {
  transport: string;
  chatId: string;
}

/** Implemented by each adapter so the core and the jobs can reach the phone. */
export interface Transport {
  /** "telegram", "matrix", "terminal". */
  readonly name: string;
  send(target: PushTarget, message: PushMessage): Promise<void>;
}
