import { Hono } from "hono";
import { findAccount } from "../accounts/accounts-repo";
import { getDb } from "../platform/db/client";
import { AppError } from "../platform/http/errors";
import { issueFields } from "../platform/http/validation";
import { listDeliveries } from "../webhooks/deliveries-repo";
import type { EndpointRow } from "../webhooks/endpoints-repo";
import { listEndpoints } from "../webhooks/endpoints-repo";
import { ALL_EVENTS, WEBHOOK_EVENT_NAMES } from "../webhooks/event-names";
import { createWebhookBody, updateWebhookBody } from "../webhooks/schemas";
import { rotateWebhookSecret } from "../webhooks/secrets";
import {
	acceptedUrl,
	changeEndpoint,
	createEndpoint,
	loadDelivery,
	loadOwnedEndpoint,
	ownerOf,
	redeliver,
	removeEndpoint,
	sendTestEvent,
} from "../webhooks/service";
import { type DashContext, describe, field, fieldAll, formOf, notFoundPage } from "./guard";
import { Csrf, ErrorNotice, fmt, Page } from "./layout";
import type { DashBindings, DashboardUser } from "./session";

export const webhookPages = new Hono<DashBindings>();

const HOOKS = "/dashboard/settings/webhooks";

type Problem = ReturnType<typeof describe> | null;

function EventChoices({ chosen }: { chosen: readonly string[] }) {
	return (
		<fieldset>
			<legend>Events</legend>
			<span class="check">
				<input
					type="checkbox"
					id="ev-all"
					name="events"
					value={ALL_EVENTS}
					checked={chosen.includes(ALL_EVENTS)}
				/>{" "}
				<label for="ev-all">Every event</label>
			</span>
			{WEBHOOK_EVENT_NAMES.map((name) => (
				<span class="check">
					<input
						type="checkbox"
						id={`ev-${name}`}
						name="events"
						value={name}
						checked={chosen.includes(name)}
					/>{" "}
					<label for={`ev-${name}`}>
						<code>{name}</code>
					</label>
				</span>
			))}
		</fieldset>
	);
}

async function ListPage(props: {
	c: DashContext;
	error?: Problem;
	notice?: string | null;
	secret?: string | null;
}) {
	const { c } = props;
	const me = c.var.dashboard;
	const { rows } = await listEndpoints(getDb(c.env.DB), ownerOf(me.auth), 100, null);
	return (
		<Page title="Webhooks" user={me} current={HOOKS}>
			<h1>Webhooks</h1>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			<ErrorNotice error={props.error} />
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
									<a href={`${HOOKS}/${e.id}`}>{e.url}</a>
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
			<form method="post" action={HOOKS}>
				<Csrf user={me} />
				<label for="w-url">URL (https)</label>
				<input id="w-url" name="url" type="url" required />
				<EventChoices chosen={[ALL_EVENTS]} />
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
					<button type="submit" class="danger">
						Rotate secret
					</button>
				</form>
			</div>
		</Page>
	);
}

webhookPages.get("/", async (c) => {
	const notice = c.req.query("deleted") ? "The endpoint is deleted." : null;
	return c.html(await ListPage({ c, notice }));
});

/** The events field of a form: the checked names, or an empty list the schema refuses. */
function eventsOf(form: Awaited<ReturnType<typeof formOf>>): string[] {
	return fieldAll(form, "events");
}

webhookPages.post("/", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const parsed = createWebhookBody.safeParse({ url: field(form, "url"), events: eventsOf(form) });
	if (!parsed.success) {
		return c.html(
			await ListPage({
				c,
				error: { message: "The endpoint was not added.", fields: issueFields(parsed.error.issues) },
			}),
			422,
		);
	}
	try {
		const row = await createEndpoint(
			c.env,
			me.auth,
			{ ...parsed.data, url: acceptedUrl(c.env, parsed.data.url) },
			c.get("now"),
		);
		return c.redirect(`${HOOKS}/${row.id}?created=1`, 303);
	} catch (error) {
		return c.html(await ListPage({ c, error: describe(error) }), 422);
	}
});

webhookPages.post("/secret/reveal", async (c) => {
	const account = await findAccount(getDb(c.env.DB), c.var.dashboard.auth.accountId);
	c.header("Cache-Control", "no-store");
	return c.html(await ListPage({ c, secret: account?.webhookSecret ?? null }));
});

webhookPages.post("/secret/rotate", async (c) => {
	const result = await rotateWebhookSecret(c.env.DB, c.var.dashboard.auth.accountId, c.get("now"));
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

async function endpointOf(c: DashContext): Promise<EndpointRow | null> {
	try {
		return await loadOwnedEndpoint(c.env, c.var.dashboard.auth, c.req.param("id") ?? "");
	} catch (error) {
		if (error instanceof AppError && error.status === 404) return null;
		throw error;
	}
}

async function EndpointPage(props: {
	c: DashContext;
	endpoint: EndpointRow;
	error?: Problem;
	notice?: string | null;
}) {
	const { c, endpoint } = props;
	const me: DashboardUser = c.var.dashboard;
	const { rows, attempts } = await listDeliveries(getDb(c.env.DB), endpoint.id, undefined, 50, null);
	const base = `${HOOKS}/${endpoint.id}`;
	return (
		<Page title={`Webhook endpoint ${endpoint.url}`} user={me} current={HOOKS}>
			<p>
				<a href={HOOKS}>All endpoints</a>
			</p>
			<h1>Endpoint</h1>
			<p class="secret">{endpoint.url}</p>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			<ErrorNotice error={props.error} />
			<p>
				State: <strong>{endpoint.active ? "enabled" : "disabled"}</strong>
				{endpoint.disabledReason ? ` (${endpoint.disabledReason})` : ""}
			</p>
			<div class="row">
				<form method="post" action={`${base}/test`}>
					<Csrf user={me} />
					<button type="submit">Send test event</button>
				</form>
				<form method="post" action={`${base}/toggle`}>
					<Csrf user={me} />
					<input type="hidden" name="active" value={endpoint.active ? "false" : "true"} />
					<button type="submit" class="secondary">
						{endpoint.active ? "Disable" : "Enable"}
					</button>
				</form>
				<form
					method="post"
					action={`${base}/delete`}
					data-confirm="Delete this endpoint and its delivery log?"
				>
					<Csrf user={me} />
					<button type="submit" class="danger">
						Delete endpoint
					</button>
				</form>
			</div>
			<h2>Edit</h2>
			<form method="post" action={`${base}/edit`}>
				<Csrf user={me} />
				<label for="e-url">URL</label>
				<input id="e-url" name="url" type="url" required value={endpoint.url} />
				<EventChoices chosen={endpoint.events} />
				<button type="submit">Save</button>
			</form>
			<h2>Delivery log</h2>
			{rows.length === 0 ? <p>No deliveries yet.</p> : null}
			{rows.slice(0, 50).map((d) => (
				<section class="card" aria-label={`Delivery ${d.id}`} data-delivery={d.id}>
					<h3>
						{d.eventType} <span class="status">{d.outcome}</span>
					</h3>
					<p class="muted">
						{d.id} · {d.kind}
						{d.redeliveryOf ? ` of ${d.redeliveryOf}` : ""} · created {fmt(d.createdAt)}
					</p>
					<table>
						<thead>
							<tr>
								<th scope="col">Attempt</th>
								<th scope="col">At</th>
								<th scope="col">Status</th>
								<th scope="col">Duration</th>
								<th scope="col">Response</th>
							</tr>
						</thead>
						<tbody>
							{attempts
								.filter((a) => a.deliveryId === d.id)
								.map((a) => (
									<tr>
										<td>{a.attempt}</td>
										<td>{fmt(a.attemptedAt)}</td>
										<td>
											{a.outcome} {a.statusCode ?? a.errorType ?? ""}
										</td>
										<td>{a.durationMs} ms</td>
										<td>
											<code>{(a.responseBody ?? a.error ?? "").slice(0, 200)}</code>
										</td>
									</tr>
								))}
						</tbody>
					</table>
					{d.outcome !== "pending" ? (
						<form method="post" action={`${base}/deliveries/${d.id}/redeliver`}>
							<Csrf user={me} />
							<button type="submit" class="secondary" aria-label={`Redeliver ${d.id}`}>
								Redeliver
							</button>
						</form>
					) : null}
				</section>
			))}
		</Page>
	);
}

/** The notice after a redirect (post, then redirect, then get: a reload repeats nothing). */
function noticeOf(q: Record<string, string>): string | null {
	const outcome = (v: string | undefined) => (v && /^[a-z]{1,20}$/.test(v) ? v : "sent");
	if (q.created) return "Endpoint added.";
	if (q.saved) return "Saved.";
	if (q.enabled) return "Enabled.";
	if (q.disabled) return "Disabled.";
	if (q.sent) return `Test event sent: ${outcome(q.sent)}.`;
	if (q.redelivered)
		return q.redelivered === "pending"
			? "Redelivery queued: it appears in the log below."
			: `Redelivered: ${outcome(q.redelivered)}.`;
	return null;
}

webhookPages.get("/:id", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	return c.html(await EndpointPage({ c, endpoint, notice: noticeOf(c.req.query()) }));
});

webhookPages.post("/:id/edit", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	const form = await formOf(c);
	const parsed = updateWebhookBody.safeParse({ url: field(form, "url"), events: eventsOf(form) });
	if (!parsed.success) {
		return c.html(
			await EndpointPage({
				c,
				endpoint,
				error: { message: "Nothing was changed.", fields: issueFields(parsed.error.issues) },
			}),
			422,
		);
	}
	try {
		const b = parsed.data;
		const updated = await changeEndpoint(
			c.env,
			endpoint,
			{
				...(b.url === undefined ? {} : { url: acceptedUrl(c.env, b.url) }),
				...(b.events ? { events: b.events } : {}),
			},
			c.get("now"),
		);
		return c.redirect(`${HOOKS}/${updated.id}?saved=1`, 303);
	} catch (error) {
		return c.html(await EndpointPage({ c, endpoint, error: describe(error) }), 422);
	}
});

webhookPages.post("/:id/toggle", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	const form = await formOf(c);
	const active = field(form, "active") === "true";
	const updated = await changeEndpoint(c.env, endpoint, { active }, c.get("now"));
	return c.redirect(`${HOOKS}/${updated.id}?${active ? "enabled" : "disabled"}=1`, 303);
});

webhookPages.post("/:id/delete", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	await removeEndpoint(c.env, endpoint);
	return c.redirect(`${HOOKS}?deleted=1`, 303);
});

webhookPages.post("/:id/test", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	const { row } = await sendTestEvent(c.env, endpoint, c.get("now"));
	return c.redirect(`${HOOKS}/${endpoint.id}?sent=${row.outcome}`, 303);
});

webhookPages.post("/:id/deliveries/:deliveryId/redeliver", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	try {
		const original = await loadDelivery(c.env, endpoint, c.req.param("deliveryId"));
		const { row } = await redeliver(c.env, endpoint, original, c.get("now"));
		return c.redirect(`${HOOKS}/${endpoint.id}?redelivered=${row.outcome}`, 303);
	} catch (error) {
		if (error instanceof AppError && error.status === 404) return notFoundPage(c);
		return c.html(await EndpointPage({ c, endpoint, error: describe(error) }), 422);
	}
});
