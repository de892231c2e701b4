// Which URLs may receive webhooks (decisions.md, Webhooks): https only; plain http only in
// development and only to a host written literally as localhost, 127.0.0.1 or [::1]; no address
// in a loopback, private, link-local, CGNAT, unique-local, multicast, unspecified or reserved
// range in any spelling the URL parser accepts; no userinfo. Hostnames are never resolved.

import ipaddr from "ipaddr.js";

export type UrlVerdict = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_URL_LENGTH = 2048;

/** The development exception, matched on the raw text before any parsing. */
const LITERAL_LOCAL_HTTP = /^http:\/\/(?:localhost|127\.0\.0\.1|\[::1\])(?::\d{1,5})?(?=[/?#]|$)/;
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Names that only ever mean this machine or a private network. */
const PRIVATE_NAME_SUFFIXES = [
	".localhost",
	".local",
	".localdomain",
	".internal",
	".home.arpa",
	".in-addr.arpa",
	".ip6.arpa",
	// Names private networks use by convention (Kubernetes services, home and office networks).
	".svc",
	".cluster.local",
	".lan",
	".intranet",
	".corp",
	".private",
];

const refuse = (reason: string): UrlVerdict => ({ ok: false, reason });

export function checkWebhookUrl(raw: string, environment: string): UrlVerdict {
	if (raw.length === 0) return refuse("Must not be empty");
	if (raw.length > MAX_URL_LENGTH) return refuse(`Must be at most ${MAX_URL_LENGTH} characters`);
	// The parser would silently strip or reinterpret these; a stored URL means exactly what it says.
	if ([...raw].some((ch) => ch <= " " || ch === "\u007f" || ch === "\\")) {
		return refuse("Must not contain spaces, control characters or backslashes");
	}
	const development = environment === "development";
	if (development && LITERAL_LOCAL_HTTP.test(raw)) return checkLocalHttp(raw);
	if (!/^https:\/\//i.test(raw)) {
		return refuse(
			development
				? "Must be an https:// URL; plain http is accepted only for localhost, 127.0.0.1 or [::1] in development"
				: "Must be an https:// URL",
		);
	}
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return refuse("Must be a valid URL");
	}
	if (url.protocol !== "https:") return refuse("Must be an https:// URL");
	const authority = raw.slice("https://".length).split(/[/?#]/, 1)[0] ?? "";
	// `https:///host` parses as `https://host`: the parser repairs it, so refuse it instead.
	if (authority === "") return refuse("Must have the host right after https:// (no third slash)");
	if (authority.includes("@") || url.username !== "" || url.password !== "") {
		return refuse("Must not contain user information (user:password@)");
	}
	// Port 0 cannot be connected to: an endpoint there could never receive a delivery.
	if (url.port === "0") return refuse("Must not use port 0");
	const problem = hostProblem(url.hostname);
	if (problem) return refuse(problem);
	return { ok: true, url: url.href };
}

function checkLocalHttp(raw: string): UrlVerdict {
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		return refuse("Must be a valid URL");
	}
	if (url.protocol !== "http:" || !LOCAL_HOSTS.has(url.hostname) || url.username || url.password) {
		return refuse("Must be an https:// URL");
	}
	return { ok: true, url: url.href };
}

/** Why this (parsed, normalised) host may not receive webhooks, or null when it may. */
export function hostProblem(hostname: string): string | null {
	if (hostname.startsWith("[")) {
		const groups = parseIpv6(hostname.slice(1, -1));
		if (!groups) return "Must have a valid host";
		const range = refusedIpv6Range(groups);
		return range ? `Must not point to ${range} address (${hostname})` : null;
	}
	const v4 = parseDottedIpv4(hostname);
	if (v4 !== null) {
		const range = refusedIpv4Range(v4);
		return range ? `Must not point to ${range} address (${hostname})` : null;
	}
	const name = hostname.replace(/\.$/, "");
	// `localhost..` or `metadata.google.internal..` would slip past the rules below.
	if (name !== "" && name.split(".").includes("")) {
		return `Must not have an empty label in the host name (${hostname}): no leading dot, no two dots in a row, at most one trailing dot`;
	}
	if (name === "" || !name.includes(".")) {
		return "Must use a fully qualified public host name (single-label names such as localhost are refused)";
	}
	if (PRIVATE_NAME_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
		return `Must not use a local or internal host name (${hostname})`;
	}
	return null;
}

/** The URL parser has already turned every IPv4 spelling (decimal, octal, hex, short) into a.b.c.d. */
function parseDottedIpv4(host: string): number | null {
	if (!/^\d{1,3}(?:\.\d{1,3}){3}$/.test(host) || !ipaddr.IPv4.isValidFourPartDecimal(host)) return null;
	const [a = 0, b = 0, c = 0, d = 0] = ipaddr.IPv4.parse(host).octets;
	return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Address ranges by label, as `ipaddr.subnetMatch` takes them. */
type Ranges<T> = Record<string, [T, number][]>;

/** Refused ranges by the label the refusal names; the first label whose range matches is named. */
const IPV4_REFUSED: Ranges<ipaddr.IPv4> = cidrs({
	"an unspecified": ["0.0.0.0/8"],
	"a private": ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"],
	"a carrier-grade NAT": ["100.64.0.0/10"],
	"a loopback": ["127.0.0.0/8"],
	"a link-local (cloud metadata)": ["169.254.0.0/16"],
	"a reserved": ["192.0.0.0/24", "192.88.99.0/24"],
	"a documentation": ["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"],
	"a benchmarking": ["198.18.0.0/15"],
	"a multicast": ["224.0.0.0/4"],
	"a reserved or broadcast": ["240.0.0.0/4"],
});

/**
 * Only global unicast (2000::/3) outside its special-purpose blocks may receive webhooks. Order
 * matters where ranges nest: `::` and `::1` before the IPv4-compatible `::/96`, and every named
 * block outside 2000::/3 before "a reserved", which is all the rest of it.
 */
const IPV6_REFUSED: Ranges<ipaddr.IPv6> = cidrs({
	"an unspecified": ["::/128"],
	"a loopback": ["::1/128"],
	"an IPv4-mapped": ["::ffff:0:0/96"],
	"an IPv4-compatible": ["::/96"],
	"a unique-local": ["fc00::/7"],
	"a link-local": ["fe80::/10"],
	"a site-local": ["fec0::/10"],
	"a multicast": ["ff00::/8"],
	"a NAT64": ["64:ff9b::/32"],
	"a reserved": ["::/3", "4000::/2", "8000::/1"],
	"a documentation": ["2001:db8::/32", "3ff0::/12"],
	"a special-purpose (Teredo, benchmarking)": ["2001::/23"],
	"a 6to4 (embedded IPv4)": ["2002::/16"],
});

function cidrs<T extends ipaddr.IPv4 | ipaddr.IPv6>(table: Record<string, string[]>): Ranges<T> {
	return Object.fromEntries(
		Object.entries(table).map(([label, ranges]) => [
			label,
			ranges.map((r) => ipaddr.parseCIDR(r) as [T, number]),
		]),
	);
}

/** The refused range an IPv4 address (as a 32-bit number) is in, or null. */
export function refusedIpv4Range(address: number): string | null {
	const octets = [address >>> 24, (address >>> 16) & 0xff, (address >>> 8) & 0xff, address & 0xff];
	return matched(new ipaddr.IPv4(octets), IPV4_REFUSED);
}

/** Eight 16-bit groups, or null. Accepts `::` compression and a dotted IPv4 tail. */
export function parseIpv6(text: string): number[] | null {
	// A zone (`fe80::1%eth0`) is not an address the URL parser gives.
	if (text.includes("%") || !ipaddr.IPv6.isValid(text)) return null;
	return ipaddr.IPv6.parse(text).parts;
}

/** The refused range an IPv6 address (eight groups) is in, or null. */
export function refusedIpv6Range(groups: number[]): string | null {
	return matched(new ipaddr.IPv6(groups), IPV6_REFUSED);
}

function matched<T extends ipaddr.IPv4 | ipaddr.IPv6>(address: T, ranges: Ranges<T>): string | null {
	const label = ipaddr.subnetMatch(address, ranges, "");
	return label === "" ? null : label;
}
