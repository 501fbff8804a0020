/**
 * Which addresses fetch_url may reach (SSRF protection): only public unicast
 * ones. Private, loopback, link-local (which holds the cloud metadata
 * address 169.254.169.254), unique-local, carrier-grade NAT, multicast,
 * reserved and unspecified ranges are refused, for IPv4 and IPv6. IPv6
 * addresses that carry an IPv4 address (mapped ::ffff:10.0.0.1, compatible
 * ::127.0.0.1, NAT64, 6to4, Teredo: embedded-ipv4.ts) are judged by that IPv4
 * address; other IPv6 addresses must lie in global unicast 2000::/3.
 * ipaddr.js knows the ranges.
 */
import { lookup } from "node:dns/promises";
import { isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";
import { LookupError } from "../../foundation/errors.ts";
import { embeddedIPv4 } from "./embedded-ipv4.ts";

/** Ranges that would let a page read the machine or its network. */
const PUBLIC_RANGES = new Set(["unicast"]);
/** Hosts that are metadata services by name on common clouds. */
const METADATA_NAMES = new Set(["metadata.google.internal", "metadata", "instance-data", "instance-data.ec2.internal"]);
/** The only IPv6 block the internet routes (IANA global unicast); the rest of the space is reserved or special. */
const GLOBAL_UNICAST = ipaddr.IPv6.parse("2000::");

/**
 * `address` parsed strictly, or undefined. Node's own check decides what is
 * an address (ipaddr.js would also take "127.1" or octal, and reads
 * "::127.0.0.1" as ::ffff:127.0.0.1); an IPv6 address is first written in
 * hex by the WHATWG URL parser, as a URL's host is, so both agree.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (isIPv4(address)) return ipaddr.IPv4.parse(address);
  if (!isIPv6(address)) return undefined;
  const noZone = address.split("%")[0]!; // fe80::1%eth0: the zone names an interface, not part of the address
  try {
    return ipaddr.IPv6.parse(new URL(`http://[${noZone}]/`).hostname.slice(1, -1));
  } catch {
    return undefined;
  }
}

/** Why an IPv4 address may not be fetched, or undefined when it is public. */
function ipv4Reason(ip: ipaddr.IPv4, allowLoopback: boolean): string | undefined {
  const range = ip.range();
  if (range === "loopback" && allowLoopback) return undefined;
  return PUBLIC_RANGES.has(range) ? undefined : aRange(range);
}

/** Why `address` may not be fetched, or undefined when it is public. `allowLoopback` is the test switch (plain 127.x and ::1 only). */
export function forbiddenReason(address: string, allowLoopback = false): string | undefined {
  const ip = parseAddress(address);
  if (!ip) return `"${address}" is not an IP address`;
  if (ip.kind() === "ipv4") {
    const why = ipv4Reason(ip as ipaddr.IPv4, allowLoopback);
    return why && `${address} is ${why}`;
  }
  const v6 = ip as ipaddr.IPv6;
  const inner = embeddedIPv4(v6);
  if (inner) {
    // A mapped address is the IPv4 address itself on a dual-stack socket, so the test switch holds for it too.
    const mapped = inner.form === "IPv4-mapped";
    for (const v4 of inner.ipv4) {
      const why = ipv4Reason(v4, mapped && allowLoopback);
      if (why) return `${address} embeds ${v4.toString()} (${inner.form}), ${why}`;
    }
    return inner.publicWhenIPv4Public ? undefined : `${address} is in the ${inner.form} form, which no public site needs`;
  }
  const range = v6.range();
  if (range === "loopback" && allowLoopback) return undefined;
  if (!PUBLIC_RANGES.has(range)) return `${address} is ${aRange(range)}`;
  if (!v6.match(GLOBAL_UNICAST, 3)) return `${address} is outside the global unicast range 2000::/3 (a reserved address)`;
  return undefined;
}

/** "a private address", "an unspecified address". */
function aRange(range: string): string {
  const name = describeRange(range);
  return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name} address`;
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
  if (isIPv4(bare) || isIPv6(bare)) addresses = [{ address: bare, family: isIPv6(bare) ? 6 : 4 }];
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
