/**
 * IPv6 addresses that carry an IPv4 address inside them. A packet to one of
 * them may end up at that IPv4 address (through a NAT64 translator, a 6to4
 * relay, a Teredo relay or the kernel's own IPv4-in-IPv6 handling), so the
 * address guard judges them by the IPv4 address they carry: a loopback,
 * private or metadata address must not come back in through an IPv6 door.
 */
import ipaddr from "ipaddr.js";

/** One IPv6 form that embeds IPv4 addresses, with the addresses it embeds. */
interface EmbeddedIPv4 {
  /** The form, for the refusal message ("6to4", "NAT64, 64:ff9b::/96"). */
  form: string;
  /** The embedded IPv4 addresses (Teredo has two: its server and its client). */
  ipv4: ipaddr.IPv4[];
  /**
   * Whether a public embedded address makes the whole address public. For
   * the mapped form (on a dual-stack socket it is the IPv4 address itself)
   * and the well-known NAT64 prefix (a DNS64 resolver on an IPv6-only network
   * gives every IPv4-only site such an address). The other forms are
   * deprecated or local transition mechanisms no public site is reached by.
   */
  publicWhenIPv4Public: boolean;
}

const WELL_KNOWN_NAT64 = ipaddr.IPv6.parse("64:ff9b::");
const LOCAL_NAT64 = ipaddr.IPv6.parse("64:ff9b:1::");
const SIX_TO_FOUR = ipaddr.IPv6.parse("2002::");
const TEREDO = ipaddr.IPv6.parse("2001::");

/** The IPv4 address in 16-bit words `hi` and `lo`, optionally XORed with `mask` (Teredo obfuscates its client). */
function v4(hi: number, lo: number, mask = 0): ipaddr.IPv4 {
  const h = hi ^ mask;
  const l = lo ^ mask;
  return new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]);
}

/** The IPv4 addresses `ip` carries and in which form, or undefined for an address that carries none. */
export function embeddedIPv4(ip: ipaddr.IPv6): EmbeddedIPv4 | undefined {
  const w = ip.parts;
  const last = () => v4(w[6]!, w[7]!);
  // ::a.b.c.d (RFC 4291 "IPv4-compatible", deprecated); :: and ::1 are the unspecified and loopback addresses themselves.
  if (w.slice(0, 6).every((x) => x === 0) && (w[6] !== 0 || w[7]! > 1)) return { form: "IPv4-compatible", ipv4: [last()], publicWhenIPv4Public: false };
  // ::ffff:a.b.c.d (mapped) and ::ffff:0:a.b.c.d (RFC 6145 translated).
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) return { form: "IPv4-mapped", ipv4: [last()], publicWhenIPv4Public: true };
  if (w.slice(0, 4).every((x) => x === 0) && w[4] === 0xffff && w[5] === 0) return { form: "IPv4-translated", ipv4: [last()], publicWhenIPv4Public: false };
  if (ip.match(WELL_KNOWN_NAT64, 96)) return { form: "NAT64, 64:ff9b::/96", ipv4: [last()], publicWhenIPv4Public: true };
  // Local-use NAT64 (RFC 8215): where the IPv4 sits depends on the local prefix length; the /96 spelling is the common one.
  if (ip.match(LOCAL_NAT64, 48)) return { form: "local-use NAT64, 64:ff9b:1::/48", ipv4: [last()], publicWhenIPv4Public: false };
  // 6to4 (RFC 3056): 2002:AABB:CCDD::/48 is the site behind AA.BB.CC.DD.
  if (ip.match(SIX_TO_FOUR, 16)) return { form: "6to4", ipv4: [v4(w[1]!, w[2]!)], publicWhenIPv4Public: false };
  // Teredo (RFC 4380): the server's IPv4 in bits 32–63, the client's in the last 32 bits XOR 0xffffffff.
  if (ip.match(TEREDO, 32)) return { form: "Teredo", ipv4: [v4(w[2]!, w[3]!), v4(w[6]!, w[7]!, 0xffff)], publicWhenIPv4Public: false };
  return undefined;
}
