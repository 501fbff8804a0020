/**
 * Which addresses fetch_url may reach (SSRF protection): only public unicast
 * ones. Private, loopback, link-local (which holds the cloud metadata
 * address 169.254.169.254), unique-local, carrier-grade NAT, multicast,
 * reserved and unspecified ranges are refused, for IPv4, IPv6 and IPv4
 * addresses written as IPv6 (::ffff:10.0.0.1). ipaddr.js knows the ranges.
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { LookupError } from "../../foundation/errors.ts";

/** Ranges that would let a page read the machine or its network. */
const PUBLIC_RANGES = new Set(["unicast"]);
/** Hosts that are metadata services by name on common clouds. */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);

/** Why `address` may not be fetched, or undefined when it is public. `allowLoopback` is the test switch. */
export function forbiddenReason(address: string, allowLoopback = false): string | undefined {
  if (!ipaddr.isValid(address)) return `"${address}" is not an IP address`;
  const ip = ipaddr.process(address); // ::ffff:a.b.c.d becomes a.b.c.d, so mapped addresses get the IPv4 verdict
  const range = ip.range();
  if (range === "loopback" && allowLoopback) return undefined;
  return PUBLIC_RANGES.has(range) ? undefined : `${address} is a ${describeRange(range)} address`;
}

function describeRange(range: string): string {
  const names: Record<string, string> = {
    private: "private",
    loopback: "loopback",
    linkLocal: "link-local (metadata)",
    uniqueLocal: "unique-local (private)",
    carrierGradeNat: "carrier-grade NAT",
    unspecified: "unspecified",
    multicast: "multicast",
    broadcast: "broadcast",
    reserved: "reserved",
  };
  return names[range] ?? range;
}

/** One checked address for a host, to connect to (so DNS cannot change its answer between check and connect). */
export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves `host` and checks every address it resolves to; refuses the host
 * if any is not public (a name with one private address could be rebound).
 * IP literals are checked as they are.
 */
export async function resolvePublic(host: string, allowLoopback = false): Promise<CheckedAddress> {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (METADATA_NAMES.has(bare.toLowerCase())) throw new LookupError("refused", `${bare} is a metadata service`);
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(bare)) addresses = [{ address: bare, family: bare.includes(":") ? 6 : 4 }];
  else {
    try {
      addresses = await lookup(bare, { all: true, verbatim: true });
    } catch (err) {
      throw new LookupError("failed", `cannot resolve ${bare}`, { cause: err });
    }
  }
  if (!addresses.length) throw new LookupError("failed", `${bare} has no address`);
  for (const a of addresses) {
    const why = forbiddenReason(a.address, allowLoopback);
    if (why) throw new LookupError("refused", `${bare} resolves to ${why}`);
  }
  const first = addresses[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
