import { Hono } from "hono";
import {
	type ApiKeyRow,
	findApiKey,
	insertApiKey,
	listApiKeysPage,
	revokeApiKey,
} from "../accounts/accounts-repo";
import { changingAuth } from "../accounts/auth-changes";
import { generateApiKey, hashApiKey, KEY_ENVIRONMENTS, type KeyEnvironment } from "../accounts/keys";
import { isScope, SCOPES } from "../accounts/scopes";
import { getDb } from "../platform/db/client";
import { newId } from "../platform/lib/random";
import { parseIsoDateTime } from "../platform/lib/time";
import { firstSend, newFormId, sendOnce } from "./form-once";
import { type DashContext, field, fieldAll, formOf, notFoundPage } from "./guard";
import { Csrf, ErrorNotice, fmt, formFields, invalidProps, Page } from "./layout";
import { cursorOf, PageLinks, pageOf, SETTINGS_PAGE_SIZE } from "./paging";
import type { DashBindings, DashboardUser } from "./session";

export const keyPages = new Hono<DashBindings>();

const KEYS = "/dashboard/settings/api-keys";

const SCOPE_TEXT: Record<string, string> = {
	"interviews:read": "Read interviews and their results",
	"interviews:write": "Create and change interviews",
	"interviews:delete": "Cancel interviews",
	"interviews:read_recordings": "Read interview recordings",
	"webhooks:read": "Read webhook endpoints and deliveries",
	"webhooks:write": "Create and change webhook endpoints",
	"analytics:read": "Read usage and account analytics",
};

/** The create form's fields by the id of each one's input (the scopes' first checkbox). */
const KEY_INPUTS = {
	name: "k-name",
	environment: "k-env",
	scopes: `scope-${SCOPES[0]}`,
	expires_on: "k-exp",
};

const ENVIRONMENT_TEXT: [KeyEnvironment, string][] = [
	["live", "real interviews, charged"],
	["test", "production data, no charge, no e-mail"],
	["dev", "separate sandbox data"],
];

/** "Last used" is written at most once per 5 minutes per key (src/accounts/key-usage.ts). */
function KeysPage(props: {
	me: DashboardUser;
	/** A page of the account's keys (newest first) and the cursor of the next; `later`: not the first. */
	keys: { rows: ApiKeyRow[]; next: string | null; later: boolean };
	/** The create form's id: a post of it makes one key however often it is sent (form-once.ts). */
	formId: string;
	/** The create form's values, when it is shown again. */
	values?: { name: string; environment: string; scopes: string[]; expiresOn: string };
	created?: { value: string; name: string } | null;
	error?: { message: string; fields?: Record<string, string> } | null;
	notice?: string | null;
}) {
	const now = Date.now();
	const v = props.values;
	const form = formFields(KEY_INPUTS, props.error);
	return (
		<Page title="API keys" user={props.me} current={KEYS}>
			<h1>API keys</h1>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			{props.created ? (
				<section class="notice ok" aria-labelledby="new-key-h">
					<h2 id="new-key-h">Your new key "{props.created.name}"</h2>
					<p>Copy it now: it is shown only this once and cannot be shown again.</p>
					<p class="secret" id="new-key">
						{props.created.value}
					</p>
					<button type="button" class="secondary" data-copy="#new-key">
						Copy
					</button>
				</section>
			) : null}
			<ErrorNotice error={props.error} targets={form.targets} />
			<h2>Keys</h2>
			<div class="table-wrap">
				<table>
					<thead>
						<tr>
							<th scope="col">Name</th>
							<th scope="col">Prefix</th>
							<th scope="col">Environment</th>
							<th scope="col">Scopes</th>
							<th scope="col">Created</th>
							<th scope="col">
								Last used <span class="muted">(to 5 min)</span>
							</th>
							<th scope="col">Expires</th>
							<th scope="col">State</th>
						</tr>
					</thead>
					<tbody>
						{props.keys.rows.map((k) => {
							const state =
								k.revokedAt !== null
									? "revoked"
									: k.expiresAt !== null && k.expiresAt <= now
										? "expired"
										: "active";
							return (
								<tr data-key-id={k.id}>
									<td>{k.name}</td>
									<td>
										<code>{k.keyPrefix}…</code>
									</td>
									<td>{k.environment}</td>
									<td>{k.permissions.join(", ")}</td>
									<td>{fmt(k.createdAt)}</td>
									<td data-last-used={k.lastUsedAt ?? "never"}>
										{k.lastUsedAt === null ? <span class="muted">never</span> : fmt(k.lastUsedAt)}
									</td>
									<td>{k.expiresAt === null ? "never" : fmt(k.expiresAt)}</td>
									<td>
										{state}
										{state === "active" ? (
											<form
												method="post"
												action={`${KEYS}/${k.id}/revoke`}
												data-confirm={`Revoke the key "${k.name}"? Requests with it fail at once.`}
											>
												<Csrf user={props.me} />
												<button type="submit" class="danger" aria-label={`Revoke ${k.name}`}>
													Revoke
												</button>
											</form>
										) : null}
									</td>
								</tr>
							);
						})}
					</tbody>
				</table>
			</div>
			<PageLinks base={KEYS} next={props.keys.next} later={props.keys.later} />
			<h2>Create a key</h2>
			<form method="post" action={KEYS} data-once>
				<Csrf user={props.me} />
				<input type="hidden" name="form_id" value={props.formId} />
				<label for={form.id("name")}>Name</label>
				<input {...form.input("name")} type="text" required maxlength={100} value={v?.name ?? ""} />
				<label for={form.id("environment")}>Environment</label>
				<select {...form.input("environment")}>
					{ENVIRONMENT_TEXT.map(([env, text]) => (
						<option value={env} selected={v?.environment === env}>
							{env}: {text}
						</option>
					))}
				</select>
				<fieldset>
					<legend>Scopes</legend>
					{SCOPES.map((s) => (
						<span class="check">
							<input
								type="checkbox"
								id={`scope-${s}`}
								name="scopes"
								{...invalidProps(props.error, "scopes")}
								value={s}
								checked={v ? v.scopes.includes(s) : true}
							/>{" "}
							<label for={`scope-${s}`}>
								<code>{s}</code>: {SCOPE_TEXT[s]}
							</label>
						</span>
					))}
				</fieldset>
				<label for={form.id("expires_on")}>Expires on (optional, UTC end of day)</label>
				<input {...form.input("expires_on")} type="date" value={v?.expiresOn ?? ""} />
				<p>
					<button type="submit">Create key</button>
				</p>
			</form>
		</Page>
	);
}

/** The page of keys the request's `cursor` names (the first without one). */
async function keysPage(c: DashContext) {
	const cursor = cursorOf(c, "api-keys");
	const rows = await listApiKeysPage(
		getDb(c.env.DB),
		c.var.dashboard.auth.accountId,
		SETTINGS_PAGE_SIZE,
		cursor,
	);
	return { ...pageOf(rows, SETTINGS_PAGE_SIZE, "api-keys"), later: cursor !== null };
}

keyPages.get("/", async (c) => {
	const keys = await keysPage(c);
	const notice = c.req.query("revoked") ? "The key is revoked; the API refuses it from now on." : null;
	return c.html(<KeysPage me={c.var.dashboard} keys={keys} formId={newFormId()} notice={notice} />);
});

keyPages.post("/", async (c) => {
	const me = c.var.dashboard;
	const db = getDb(c.env.DB);
	const form = await formOf(c);
	const name = field(form, "name");
	const environment = field(form, "environment");
	const scopes = fieldAll(form, "scopes");
	const expiresOn = field(form, "expires_on");
	const formId = field(form, "form_id");
	const values = { name, environment, scopes, expiresOn };
	const now = c.get("now");
	const page = async (props: Partial<Parameters<typeof KeysPage>[0]>, status: 200 | 201 | 409 | 422) =>
		c.html(<KeysPage me={me} keys={await keysPage(c)} formId={newFormId()} {...props} />, status);
	const fields: Record<string, string> = {};
	if (!name || name.length > 100) fields.name = "Must be 1 to 100 characters";
	if (!(KEY_ENVIRONMENTS as readonly string[]).includes(environment))
		fields.environment = `Must be one of ${KEY_ENVIRONMENTS.join(", ")}`;
	if (scopes.length === 0) fields.scopes = "Choose at least one scope";
	else if (!scopes.every(isScope)) fields.scopes = `Must be among ${SCOPES.join(", ")}`;
	let expiresAt: number | null = null;
	if (expiresOn) {
		expiresAt = /^\d{4}-\d{2}-\d{2}$/.test(expiresOn) ? parseIsoDateTime(`${expiresOn}T23:59:59Z`) : null;
		if (expiresAt === null) fields.expires_on = "Must be a date";
		else if (expiresAt <= now) fields.expires_on = "Must be in the future";
	}
	if (Object.keys(fields).length > 0) {
		return page(
			{ formId: formId || newFormId(), values, error: { message: "The key was not created.", fields } },
			422,
		);
	}
	const permissions = [...new Set(scopes)];
	const send = await sendOnce(c, "api-key", formId, {
		name,
		environment,
		permissions: [...permissions].sort(),
		expiresAt,
	});
	if (send.status === "stale")
		return page(
			{ values, error: { message: "This form is out of date. Check it, then send it again." } },
			409,
		);
	if (send.status === "changed") {
		const message = "This form was already sent with other values. Send it again to create another key.";
		return page({ values, error: { message } }, 409);
	}
	if (send.status === "sent") {
		// The key's value is kept only as its hash: it cannot be shown again.
		if (send.result === null)
			return page({ notice: "This form is being sent. Its key will be listed below in a moment." }, 409);
		const made = await findApiKey(db, me.auth.accountId, send.result);
		if (!made) {
			// Its write failed without D1 saying so for sure, and it was not made: a new form sends it.
			const message = "This form was sent, but its key was not created. Send it again.";
			return page({ values, error: { message } }, 409);
		}
		const notice = `This form was already sent: it created the key "${made.name}", listed below. Its value was shown only once; if it was not copied, revoke the key and create another.`;
		return page({ notice }, 409);
	}
	// The same record the admin API writes: the value is shown once and stored only as its hash.
	const value = generateApiKey(environment as KeyEnvironment);
	const id = newId("key");
	await firstSend(
		send,
		async () => {
			await insertApiKey(db, {
				id,
				accountId: me.auth.accountId,
				name,
				environment: environment as KeyEnvironment,
				keyHash: await hashApiKey(value),
				keyPrefix: value.slice(0, 12),
				permissions,
				expiresAt,
				revokedAt: null,
				createdAt: now,
				lastUsedAt: null,
			});
			return id;
		},
		(made) => made,
		// A failed insert may have been written all the same: the form leads to the key if it was.
		() => id,
	);
	c.header("Cache-Control", "no-store");
	return page({ created: { value, name } }, 201);
});

keyPages.post("/:key_id/revoke", async (c) => {
	const me = c.var.dashboard;
	const db = getDb(c.env.DB);
	const key = await findApiKey(db, me.auth.accountId, c.req.param("key_id"));
	if (!key) return notFoundPage(c);
	// As the admin API revokes: inside changingAuth, so no isolate keeps using a cached copy.
	if (key.revokedAt === null)
		await changingAuth(c.env, key.accountId, () => revokeApiKey(db, key.id, c.get("now")));
	return c.redirect(`${KEYS}?revoked=1`, 303);
});
