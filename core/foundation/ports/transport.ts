/** A message Lilo sends on her own (greeting, concern, diary ping, test push). */
export interface PushMessage {
  kind: "greeting" | "concern" | "diary" | "test" | "question" | "budget";
  text: string;
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
