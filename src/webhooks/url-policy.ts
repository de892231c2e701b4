// Which URLs may receive webhooks (decisions.md, Webhooks): https only; plain http only in
// development and only to a host written literally as localhost, 127.0.0.1 or [::1]; no address
// in a loopback, private, link-local, CGNAT, unique-local, multicast, unspecified or reserved
// range in any spelling the URL parser accepts; no userinfo. Hostnames are never resolved.

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
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
	if (!match) return null;
	const parts = match.slice(1).map(Number);
	if (parts.some((p) => p > 255)) return null;
	return (((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16) | ((parts[2] ?? 0) << 8) | (parts[3] ?? 0)) >>> 0;
}

const IPV4_REFUSED: [string, string, string][] = [
	["0.0.0.0", "8", "an unspecified"],
	["10.0.0.0", "8", "a private"],
	["100.64.0.0", "10", "a carrier-grade NAT"],
	["127.0.0.0", "8", "a loopback"],
	["169.254.0.0", "16", "a link-local (cloud metadata)"],
	["172.16.0.0", "12", "a private"],
	["192.0.0.0", "24", "a reserved"],
	["192.0.2.0", "24", "a documentation"],
	["192.88.99.0", "24", "a reserved"],
	["192.168.0.0", "16", "a private"],
	["198.18.0.0", "15", "a benchmarking"],
	["198.51.100.0", "24", "a documentation"],
	["203.0.113.0", "24", "a documentation"],
	["224.0.0.0", "4", "a multicast"],
	["240.0.0.0", "4", "a reserved or broadcast"],
];

const IPV4_RANGES = IPV4_REFUSED.map(([base, bits, label]) => {
	const prefix = Number(bits);
	const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
	return { base: (parseDottedIpv4(base) ?? 0) & mask, mask, label };
});

export function refusedIpv4Range(address: number): string | null {
	for (const range of IPV4_RANGES) {
		if ((address & range.mask) >>> 0 === range.base >>> 0) return range.label;
	}
	return null;
}

/** Eight 16-bit groups, or null. Accepts `::` compression and a dotted IPv4 tail. */
export function parseIpv6(text: string): number[] | null {
	let body = text.toLowerCase();
	const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(body);
	if (dotted?.[1]) {
		const v4 = parseDottedIpv4(dotted[1]);
		if (v4 === null) return null;
		body = `${body.slice(0, -dotted[1].length)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
	}
	const halves = body.split("::");
	if (halves.length > 2) return null;
	const parse = (part: string | undefined) =>
		part === undefined || part === ""
			? []
			: part.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN));
	const head = parse(halves[0]);
	const rest = halves.length === 2 ? parse(halves[1]) : [];
	const explicit = head.length + rest.length;
	if ([...head, ...rest].some(Number.isNaN)) return null;
	if (halves.length === 1 && explicit !== 8) return null;
	if (halves.length === 2 && explicit > 7) return null;
	return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest];
}

/** Only global unicast (2000::/3) outside its special-purpose blocks may receive webhooks. */
export function refusedIpv6Range(groups: number[]): string | null {
	const [g0 = 0, g1 = 0] = groups;
	if (groups.every((g) => g === 0)) return "an unspecified";
	if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return "a loopback";
	if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) return "an IPv4-mapped";
	if (groups.slice(0, 6).every((g) => g === 0)) return "an IPv4-compatible";
	if ((g0 & 0xfe00) === 0xfc00) return "a unique-local";
	if ((g0 & 0xffc0) === 0xfe80) return "a link-local";
	if ((g0 & 0xffc0) === 0xfec0) return "a site-local";
	if ((g0 & 0xff00) === 0xff00) return "a multicast";
	if (g0 === 0x64 && g1 === 0xff9b) return "a NAT64";
	if ((g0 & 0xe000) !== 0x2000) return "a reserved";
	if (g0 === 0x2001 && g1 === 0x0db8) return "a documentation";
	if (g0 === 0x2001 && g1 < 0x0200) return "a special-purpose (Teredo, benchmarking)";
	if (g0 === 0x2002) return "a 6to4 (embedded IPv4)";
	if ((g0 & 0xfff0) === 0x3ff0) return "a documentation";
	return null;
}
