import ipaddr from "ipaddr.js";

/**
 * The key a client's address (`CF-Connecting-IP`) is counted under by the per-address limits: an
 * IPv4 address as itself (also when written as an IPv4-mapped IPv6 address), an IPv6 address as
 * its /64 whichever way it is written (compressed, in full, with a zone), so every address of one
 * network counts together (one subscriber usually holds a whole /64). A header that is not an
 * address is counted under its own text; none, as "unknown".
 */
export function addressOf(header: string | undefined): string {
	const text = header?.trim() ?? "";
	if (!text) return "unknown";
	if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text).toString();
	if (!ipaddr.IPv6.isValid(text)) return text;
	const ip = ipaddr.IPv6.parse(text);
	if (ip.isIPv4MappedAddress()) return ip.toIPv4Address().toString();
	const prefix = new ipaddr.IPv6([...ip.parts.slice(0, 4), 0, 0, 0, 0]);
	return `${prefix.toString()}/64`;
}
