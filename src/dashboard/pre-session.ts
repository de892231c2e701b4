import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import { constantTimeEqual } from "../platform/lib/crypto";
import { randomBase62 } from "../platform/lib/random";
import { field, formOf } from "./guard";
import { secureRequest } from "./session";

/**
 * The form token of the sign-in and invitation forms, whose visitors have no session yet (and so
 * no session's `_csrf`): a double-submit cookie. Showing the form sets a random token in a cookie
 * of its own (`HttpOnly`, `SameSite=Strict`; `__Host-dash_form` over HTTPS) and puts the same
 * token in the form; a post is taken only when both hold it. Another site can make a browser
 * post the form, but can neither read that cookie nor set it, so it cannot sign a visitor in to
 * an account of the other site's choosing (login CSRF), beside the origin check. Nothing is
 * stored: the token is a random value the browser keeps for a day.
 */
const TOKEN = /^[0-9A-Za-z]{32}$/;
export const PRE_SESSION_MAX_AGE_S = 24 * 3600;

function cookieName(c: Context): string {
	return secureRequest(c) ? "__Host-dash_form" : "dash_form";
}

/** The visitor's token, kept if the browser has one, else a new one; the cookie is (re)set with it. */
export function preSessionToken(c: Context): string {
	const held = getCookie(c, cookieName(c));
	const token = held && TOKEN.test(held) ? held : randomBase62(32);
	setCookie(c, cookieName(c), token, {
		path: "/",
		httpOnly: true,
		sameSite: "Strict",
		secure: secureRequest(c),
		maxAge: PRE_SESSION_MAX_AGE_S,
	});
	return token;
}

/** Whether the posted form's `_csrf` is the token in the visitor's cookie. */
export async function carriesPreSessionToken(c: Context): Promise<boolean> {
	const held = getCookie(c, cookieName(c)) ?? "";
	if (!TOKEN.test(held)) return false;
	return constantTimeEqual(field(await formOf(c), "_csrf"), held);
}
