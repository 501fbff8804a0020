import {
  KeysBackupRequest,
  KeysClaimRequest,
  KeysQueryRequest,
  KeysUploadRequest,
  RequestType,
  RoomMessageRequest,
  SignatureUploadRequest,
  ToDeviceRequest,
  type OlmMachine,
} from "@matrix-org/matrix-sdk-crypto-wasm";
import { MatrixCryptoError } from "./crypto-error.ts";

/** One call of the client-server API: method, path under the homeserver, JSON body; resolves to the JSON answer. */
export type MatrixHttp = (method: "GET" | "POST" | "PUT", path: string, body?: unknown) => Promise<unknown>;

/** A request the OlmMachine wants sent (keys upload/query/claim, to-device messages, signatures). */
export type OutgoingRequest =
  KeysUploadRequest | KeysQueryRequest | KeysClaimRequest | ToDeviceRequest | SignatureUploadRequest | RoomMessageRequest | KeysBackupRequest;

const V3 = "/_matrix/client/v3";
const enc = encodeURIComponent;

/** Where each kind of crypto request goes in the client-server API (spec v1.11, "End-to-end encryption"). */
function route(req: OutgoingRequest): { method: "POST" | "PUT"; path: string; body: unknown } {
  const body = JSON.parse(req.body) as unknown;
  if (req instanceof KeysUploadRequest) return { method: "POST", path: `${V3}/keys/upload`, body };
  if (req instanceof KeysQueryRequest) return { method: "POST", path: `${V3}/keys/query`, body };
  if (req instanceof KeysClaimRequest) return { method: "POST", path: `${V3}/keys/claim`, body };
  if (req instanceof ToDeviceRequest) return { method: "PUT", path: `${V3}/sendToDevice/${enc(req.event_type)}/${enc(req.txn_id)}`, body };
  if (req instanceof SignatureUploadRequest) return { method: "POST", path: `${V3}/keys/signatures/upload`, body };
  if (req instanceof RoomMessageRequest) return { method: "PUT", path: `${V3}/rooms/${enc(req.room_id)}/send/${enc(req.event_type)}/${enc(req.txn_id)}`, body };
  if (req instanceof KeysBackupRequest) return { method: "PUT", path: `${V3}/room_keys/keys?version=${enc(req.version)}`, body };
  throw new MatrixCryptoError(`unknown crypto request ${String((req as { type?: unknown }).type)}`);
}

/**
 * Sends one request of the OlmMachine to the homeserver and tells the
 * machine the answer (`markRequestAsSent`), which is how uploaded keys,
 * queried devices and claimed one-time keys reach its store.
 */
export async function sendOutgoing(machine: OlmMachine, http: MatrixHttp, req: OutgoingRequest): Promise<void> {
  const { method, path, body } = route(req);
  let answer: unknown;
  try {
    answer = await http(method, path, body);
  } catch (err) {
    throw new MatrixCryptoError(`crypto request ${method} ${path.split("?")[0]} failed`, { cause: err });
  }
  // Requests without an id (a signature upload made outside the machine's queue) need no confirmation.
  if (req.id) await machine.markRequestAsSent(req.id, req.type as RequestType, JSON.stringify(answer ?? {}));
}
