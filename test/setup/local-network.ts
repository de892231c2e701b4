// The workers suite reaches nothing but this machine. The test files, the Worker, its Durable
// Objects and its queue consumers share this isolate and its `fetch`: a fetch to any other host is
// refused (a TypeError, as a failed connection is) and the test that made it fails, even when the
// code under test took the refusal for a network error and carried on.
import { afterEach, expect } from "vitest";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);
const refused: string[] = [];
const realFetch = globalThis.fetch;

/** Whether a fetch of `url` stays on this machine; an unparsable URL is left to `fetch` to refuse. */
export function staysLocal(url: string): boolean {
	if (!URL.canParse(url)) return true;
	return LOCAL_HOSTS.has(new URL(url).hostname);
}

globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
	const url = input instanceof Request ? input.url : input instanceof URL ? input.href : String(input);
	if (!staysLocal(url)) {
		refused.push(url);
		return Promise.reject(new TypeError(`The test suite refused a fetch beyond this machine: ${url}`));
	}
	return realFetch(input, init);
}) as typeof fetch;

/** The fetches refused since the last call, then forgotten (for the guard's own test). */
export function takeRefused(): string[] {
	return refused.splice(0);
}

afterEach(() => {
	expect(takeRefused(), "fetches beyond this machine").toEqual([]);
});
