import { Hono } from "hono";
import { findAccount } from "../accounts/accounts-repo";
import { getDb } from "../platform/db/client";
import { sha256Hex } from "../platform/lib/crypto";
import { listEndpoints } from "../webhooks/endpoints-repo";
import { ALL_EVENTS } from "../webhooks/event-names";
import { createWebhookBody } from "../webhooks/schemas";
import { rotateWebhookSecret } from "../webhooks/secrets";
import { acceptedUrl, createEndpoint, ownerOf } from "../webhooks/service";
import { firstSend, newFormId, sendOnce } from "./form-once";
import { type DashContext, describe, field, formIssues, formOf, refusalStatus } from "./guard";
import { Csrf, ErrorNotice, fmt, formFields, Page, TestBadge } from "./layout";
import type { DashBindings } from "./session";
import { EventChoices, endpointInputs, eventsOf, HOOKS, type Problem } from "./webhook-common";

export const webhookEndpointPages = new Hono<DashBindings>();

/**
 * The secret a page was shown with, as its rotation form carries it: a rotation happens only from
 * the secret the page showed, so the same form sent twice (a reload, a second click) does not
 * rotate twice, which would end the overlap of the secret receivers still hold.
 */
async function secretVersion(secret: string): Promise<string> {
	return (await sha256Hex(`webhook-secret-version:${secret}`)).slice(0, 24);
}

async function ListPage(props: {
	c: DashContext;
	error?: Problem;
	notice?: string | null;
	secret?: string | null;
	/** The add form's id (form-once.ts), kept when the form is shown again for a fix; else a new one. */
	formId?: string;
	/** The add form's values, when it is shown again. */
	values?: { url: string; events: string[] };
}) {
	const { c } = props;
	const me = c.var.dashboard;
	const db = getDb(c.env.DB);
	const [{ rows }, account] = await Promise.all([
		listEndpoints(db, ownerOf(me.auth), 100, null),
		findAccount(db, me.auth.accountId),
	]);
	const version = account ? await secretVersion(account.webhookSecret) : "";
	const form = formFields(endpointInputs("w-url"), props.error);
	return (
		<Page title="Webhooks" user={me} current={HOOKS}>
			<h1>Webhooks</h1>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			<ErrorNotice error={props.error} targets={form.targets} />
			<h2>Endpoints</h2>
			{rows.length === 0 ? <p>No endpoints yet.</p> : null}
			<div class="table-wrap">
				<table>
					<thead>
						<tr>
							<th scope="col">URL</th>
							<th scope="col">Events</th>
							<th scope="col">State</th>
							<th scope="col">Last attempt</th>
						</tr>
					</thead>
					<tbody>
						{rows.slice(0, 100).map((e) => (
							<tr>
								<td>
									{e.testMode ? <TestBadge /> : null} <a href={`${HOOKS}/${e.id}`}>{e.url}</a>
								</td>
								<td>{e.events.join(", ")}</td>
								<td>
									{e.active ? "enabled" : `disabled${e.disabledReason ? ` (${e.disabledReason})` : ""}`}
								</td>
								<td>
									{e.lastAttemptAt === null
										? "never"
										: `${fmt(e.lastAttemptAt)}: ${e.lastAttemptOutcome ?? ""} ${e.lastAttemptStatusCode ?? ""}`}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
			<h2>Add an endpoint</h2>
			<form method="post" action={HOOKS} data-once>
				<Csrf user={me} />
				<input type="hidden" name="form_id" value={props.formId ?? newFormId()} />
				<label for={form.id("url")}>URL (https)</label>
				<input {...form.input("url")} type="url" required value={props.values?.url ?? ""} />
				<EventChoices chosen={props.values?.events ?? [ALL_EVENTS]} error={props.error} />
				<button type="submit">Add endpoint</button>
			</form>
			<h2>Signing secret</h2>
			<p>Every delivery is signed with the account's secret (see the webhooks guide).</p>
			{props.secret ? (
				<>
					<p class="secret" id="secret">
						{props.secret}
					</p>
					<button type="button" class="secondary" data-copy="#secret">
						Copy
					</button>
				</>
			) : null}
			<div class="row">
				<form
					method="post"
					action={`${HOOKS}/secret/reveal`}
					data-confirm="Show the signing secret on this screen?"
				>
					<Csrf user={me} />
					<button type="submit" class="secondary">
						Reveal secret
					</button>
				</form>
				<form
					method="post"
					action={`${HOOKS}/secret/rotate`}
					data-confirm="Rotate the signing secret? The old one keeps signing for 24 hours."
				>
					<Csrf user={me} />
					<input type="hidden" name="secret_version" value={version} />
					<button type="submit" class="danger">
						Rotate secret
					</button>
				</form>
			</div>
		</Page>
	);
}

webhookEndpointPages.get("/", async (c) => {
	const notice = c.req.query("deleted") ? "The endpoint is deleted." : null;
	return c.html(await ListPage({ c, notice }));
});

webhookEndpointPages.post("/", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const formId = field(form, "form_id");
	const values = { url: field(form, "url"), events: eventsOf(form) };
	const parsed = createWebhookBody.safeParse(values);
	if (!parsed.success) {
		const error = { message: "The endpoint was not added.", fields: formIssues(parsed.error.issues) };
		return c.html(await ListPage({ c, error, formId: formId || undefined, values }), 422);
	}
	const again = async (message: string, id?: string) =>
		c.html(await ListPage({ c, error: { message }, values, formId: id }), 409);
	const send = await sendOnce(c, "webhook-endpoint", formId, {
		url: parsed.data.url,
		events: [...parsed.data.events].sort(),
	});
	if (send.status === "stale") return again("This form is out of date. Check it, then send it again.");
	if (send.status === "changed")
		return again("This form was already sent with other values. Send it again to add another endpoint.");
	if (send.status === "sent") {
		if (send.result) return c.redirect(`${HOOKS}/${send.result}?created=again`, 303);
		return again("This form is being sent. The endpoint will be listed in a moment.", formId);
	}
	try {
		const row = await firstSend(
			send,
			() =>
				createEndpoint(
					c.env,
					me.auth,
					{ ...parsed.data, url: acceptedUrl(c.env, parsed.data.url) },
					c.get("now"),
				),
			(made) => made.id,
		);
		return c.redirect(`${HOOKS}/${row.id}?created=1`, 303);
	} catch (error) {
		return c.html(await ListPage({ c, error: describe(error), formId, values }), refusalStatus(error));
	}
});

webhookEndpointPages.post("/secret/reveal", async (c) => {
	const account = await findAccount(getDb(c.env.DB), c.var.dashboard.auth.accountId);
	c.header("Cache-Control", "no-store");
	return c.html(await ListPage({ c, secret: account?.webhookSecret ?? null }));
});

webhookEndpointPages.post("/secret/rotate", async (c) => {
	const form = await formOf(c);
	const version = field(form, "secret_version");
	if (!/^[0-9a-f]{24}$/.test(version)) {
		const message = "This form is out of date: nothing was rotated. Reload the page and rotate from there.";
		return c.html(await ListPage({ c, error: { message } }), 409);
	}
	const account = await findAccount(getDb(c.env.DB), c.var.dashboard.auth.accountId);
	if (!account || version !== (await secretVersion(account.webhookSecret))) {
		return c.html(
			await ListPage({
				c,
				error: {
					message:
						"The secret was rotated since this page was shown (perhaps by this same form, sent twice); nothing was rotated now. Reveal the secret to see the current one.",
				},
			}),
			409,
		);
	}
	const result = await rotateWebhookSecret(
		c.env.DB,
		c.var.dashboard.auth.accountId,
		c.get("now"),
		account.webhookSecret,
	);
	if (result.status !== "ok") {
		return c.html(
			await ListPage({ c, error: { message: "Another rotation happened at the same moment; try again." } }),
			409,
		);
	}
	c.header("Cache-Control", "no-store");
	return c.html(
		await ListPage({
			c,
			secret: result.secret,
			notice: "The secret is rotated. The previous one keeps signing for 24 hours.",
		}),
	);
});
