import { Hono } from "hono";
import { getDb } from "../platform/db/client";
import { addressOf } from "../platform/http/client-address";
import type { AppBindings } from "../platform/http/context";
import { carriesFormToken, field, formOf, sameOrigin } from "./guard";
import { ErrorNotice, Page } from "./layout";
import { dummyHash, hashPassword, needsRehash, verifyPassword } from "./passwords";
import { carriesPreSessionToken, preSessionToken } from "./pre-session";
import { currentUser, type DashBindings, endSession, hashToken, safeNext, startSession } from "./session";
import { passwordProblem } from "./users";
import {
	clearFailures,
	countAttempt,
	findInvitation,
	findUserByEmail,
	forgetAttempt,
	redeemInvitation,
	setPassword,
} from "./users-repo";

/** Failed sign-ins counted over this window: 5 per e-mail, 20 per address lock further tries out. */
export const LOCKOUT_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;
export const WRONG_CREDENTIALS = "Wrong email or password.";
export const LOCKED_OUT = "Too many failed sign-ins. Wait 15 minutes, then try again.";
export const FORM_EXPIRED = "This form has expired. Enter your details again.";

export const authRoutes = new Hono<DashBindings>();

function LoginPage(props: { token: string; next: string; email?: string; error?: string; status?: string }) {
	return (
		<Page title="Sign in">
			<h1>Sign in to the interview dashboard</h1>
			{props.status ? (
				<p class="notice ok" role="status">
					{props.status}
				</p>
			) : null}
			<ErrorNotice error={props.error ? { message: props.error } : null} />
			<form method="post" action={`/dashboard/login?next=${encodeURIComponent(props.next)}`}>
				<input type="hidden" name="_csrf" value={props.token} />
				<label for="email">Email</label>
				<input
					id="email"
					name="email"
					type="email"
					autocomplete="username"
					required
					value={props.email ?? ""}
				/>
				<label for="password">Password</label>
				<input id="password" name="password" type="password" autocomplete="current-password" required />
				<p>
					<button type="submit">Sign in</button>
				</p>
			</form>
		</Page>
	);
}

authRoutes.get("/login", (c) => {
	const status = c.req.query("signed_out") ? "You are signed out." : undefined;
	return c.html(
		<LoginPage token={preSessionToken(c)} next={safeNext(c.req.query("next"))} status={status} />,
	);
});

authRoutes.post("/login", async (c) => {
	const next = safeNext(c.req.query("next"));
	// Every answer that shows the form again gives it the visitor's form token.
	const page = (props: { email?: string; error: string }, status: 401 | 403 | 429) =>
		c.html(<LoginPage token={preSessionToken(c)} next={next} {...props} />, status);
	if (!sameOrigin(c)) return page({ error: "This form came from another site." }, 403);
	if (!(await carriesPreSessionToken(c))) return page({ error: FORM_EXPIRED }, 403);
	const form = await formOf(c);
	const email = field(form, "email").toLowerCase().slice(0, 254);
	const password = field(form, "password").slice(0, 200);
	const db = getDb(c.env.DB);
	const now = c.get("now");
	const since = now - LOCKOUT_WINDOW_MS;
	const subjects = [`email:${email}`, `ip:${addressOf(c.req.header("CF-Connecting-IP"))}`];
	// Counted as a failure before the password is checked, so that tries made at once are locked
	// out from the fifth on, as tries made one after another are; forgotten if it was no failure.
	const attempt = await countAttempt(db, subjects, now, since);
	const [byEmail = 0, byAddress = 0] = attempt.earlier;
	if (byEmail >= MAX_FAILURES_PER_EMAIL || byAddress >= MAX_FAILURES_PER_ADDRESS) {
		await forgetAttempt(db, attempt.ids);
		return page({ email, error: LOCKED_OUT }, 429);
	}
	const user = email ? await findUserByEmail(db, email) : undefined;
	// An unknown e-mail costs a hash as well: the answer's time does not tell whether it exists.
	const stored = user?.passwordHash ?? (await dummyHash());
	const matches = (await verifyPassword(password, stored)) && user?.passwordHash != null;
	if (!user || !matches) return page({ email, error: WRONG_CREDENTIALS }, 401);
	await forgetAttempt(db, attempt.ids);
	await clearFailures(db, `email:${email}`);
	if (needsRehash(stored)) await setPassword(db, user.id, await hashPassword(password), now);
	await startSession(c as never, user);
	return c.redirect(next, 303);
});

authRoutes.post("/logout", async (c) => {
	if (!sameOrigin(c)) return c.text("Refused", 403);
	// A signed-in session's sign-out needs its form token, as every other post does (a request
	// without Origin or Sec-Fetch-Site could otherwise sign the user out).
	const user = await currentUser(c as never);
	if (user && !(await carriesFormToken(c, user.session.csrfToken))) return c.text("Refused", 403);
	await endSession(c as never);
	return c.redirect("/dashboard/login?signed_out=1", 303);
});

function InvitationPage(props: { formToken: string; token?: string; email?: string; error?: string }) {
	return (
		<Page title="Set your password">
			<h1>Set your password</h1>
			<p>
				{props.email ? (
					<>
						You were invited to the interview dashboard as <strong>{props.email}</strong>.{" "}
					</>
				) : (
					"You were invited to the interview dashboard. "
				)}
				Choose a password of at least 12 characters.
			</p>
			<ErrorNotice error={props.error ? { message: props.error } : null} />
			<form method="post" action="/dashboard/invitation">
				<input type="hidden" name="_csrf" value={props.formToken} />
				<div id="token-field" hidden={props.token ? true : undefined}>
					<label for="token">Invitation code (the part of your link after #)</label>
					<input id="token" name="token" type="text" autocomplete="off" required value={props.token ?? ""} />
				</div>
				<label for="password">New password</label>
				<input
					id="password"
					name="password"
					type="password"
					autocomplete="new-password"
					minlength={12}
					required
				/>
				<label for="confirm">Repeat the password</label>
				<input
					id="confirm"
					name="confirm"
					type="password"
					autocomplete="new-password"
					minlength={12}
					required
				/>
				<p>
					<button type="submit">Set password</button>
				</p>
			</form>
		</Page>
	);
}

async function openInvitation(c: { env: Env; get(key: "now"): number }, token: string) {
	if (!token || token.length > 100) return null;
	const found = await findInvitation(getDb(c.env.DB), await hashToken(token));
	if (!found || found.invitation.usedAt !== null || found.invitation.expiresAt <= c.get("now")) return null;
	return found;
}

function invalidInvitation() {
	return (
		<Page title="Invitation not valid">
			<h1>This invitation is not valid</h1>
			<p>
				It was used already, it has expired, or the link is incomplete. Ask an owner of the account for a new
				one.
			</p>
		</Page>
	);
}

/** The invitation link, `/dashboard/invitation#<token>`: the page; the token stays in the browser. */
authRoutes.get("/invitation", (c) => c.html(<InvitationPage formToken={preSessionToken(c)} />));

authRoutes.post("/invitation", async (c) => {
	const form = await formOf(c);
	const token = field(form, "token").trim();
	const found = await openInvitation(c as never, token);
	if (!found) return c.html(invalidInvitation(), 404);
	const page = (error: string, status: 403 | 422) =>
		c.html(
			<InvitationPage formToken={preSessionToken(c)} token={token} email={found.user.email} error={error} />,
			status,
		);
	if (!sameOrigin(c)) return page("This form came from another site.", 403);
	if (!(await carriesPreSessionToken(c))) return page(FORM_EXPIRED, 403);
	const password = field(form, "password");
	const problem =
		passwordProblem(password) ?? (password !== field(form, "confirm") ? "The two passwords differ" : null);
	if (problem) return page(problem, 422);
	const db = getDb(c.env.DB);
	const now = c.get("now");
	const hash = await hashPassword(password);
	if (!(await redeemInvitation(db, await hashToken(token), found.user.id, hash, now))) {
		return c.html(invalidInvitation(), 404);
	}
	await startSession(c as never, { ...found.user, passwordHash: hash });
	return c.redirect("/dashboard/interviews", 303);
});

export type { AppBindings };
