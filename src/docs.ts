// GET /docs: the interactive API reference (Scalar) over /openapi.json. The page's script is
// served by the service itself (a static asset copied from @scalar/api-reference by
// scripts/assets.mjs), so the reference renders with no network access beyond this origin.
import { Scalar } from "@scalar/hono-api-reference";
import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "./platform/http/context";

/** The static asset of the reference's browser bundle (scripts/assets.mjs writes it). */
export const REFERENCE_SCRIPT = "/docs/scalar/standalone.js";

/** A fresh nonce for one response: 128 random bits, base64. */
function newNonce(): string {
	return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/**
 * The page's Content-Security-Policy: scripts from this origin and the page's own inline start-up
 * script (by nonce); data from this origin only (the document, and "try it" requests to the API);
 * images and fonts from this origin or inline. Styles allow inline: the reference sets them on
 * elements as it renders (highlighted code, layout), which no nonce can cover.
 */
export function docsPolicy(nonce: string): string {
	return [
		"default-src 'none'",
		`script-src 'self' 'nonce-${nonce}'`,
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' data: blob:",
		"font-src 'self' data:",
		"connect-src 'self'",
		"worker-src 'self' blob:",
		"frame-ancestors 'none'",
		"base-uri 'none'",
		"form-action 'none'",
	].join("; ");
}

const reference = Scalar<AppBindings>((c) => {
	const nonce = newNonce();
	c.header("Content-Security-Policy", docsPolicy(nonce));
	c.header("X-Frame-Options", "DENY");
	c.header("X-Content-Type-Options", "nosniff");
	c.header("Referrer-Policy", "same-origin");
	return {
		url: "/openapi.json",
		pageTitle: "Interview Assessment Service API",
		// The classic single-file bundle (a plain <script src>), from this service.
		cdn: REFERENCE_SCRIPT,
		nonce,
		// Nothing from elsewhere: no web fonts from Scalar's CDN, no hosted AI agent or MCP
		// generator, no toolbar of Scalar's hosted services (it shows on localhost by default).
		withDefaultFonts: false,
		agent: { disabled: true },
		mcp: { disabled: true },
		showDeveloperTools: "never",
		showToolbar: "never",
		telemetry: false,
	};
});

export const docsPage: MiddlewareHandler<AppBindings> = reference;
