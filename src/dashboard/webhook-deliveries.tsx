import { Hono } from "hono";
import { getDb } from "../platform/db/client";
import { AppError } from "../platform/http/errors";
import { cutText } from "../platform/lib/text";
import { listDeliveries } from "../webhooks/deliveries-repo";
import type { EndpointRow } from "../webhooks/endpoints-repo";
import { updateWebhookBody } from "../webhooks/schemas";
import {
	acceptedUrl,
	changeEndpoint,
	loadDelivery,
	loadOwnedEndpoint,
	redeliver,
	removeEndpoint,
	sendTestEvent,
} from "../webhooks/service";
import { type DashContext, describe, field, formIssues, formOf, notFoundPage, refusalStatus } from "./guard";
import { Csrf, ErrorNotice, fmt, formFields, Page, TestBadge } from "./layout";
import type { DashBindings, DashboardUser } from "./session";
import { EventChoices, endpointInputs, eventsOf, HOOKS, type Problem } from "./webhook-common";

export const webhookDeliveryPages = new Hono<DashBindings>();

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
	/** The edit form as it was sent, when the edit was refused: shown again as typed. */
	typed?: { url: string; events: string[] };
}) {
	const { c, endpoint } = props;
	const me: DashboardUser = c.var.dashboard;
	const { rows, attempts } = await listDeliveries(getDb(c.env.DB), endpoint.id, undefined, 50, null);
	const base = `${HOOKS}/${endpoint.id}`;
	const form = formFields(endpointInputs("e-url"), props.error);
	return (
		<Page title={`Webhook endpoint ${endpoint.url}`} user={me} current={HOOKS}>
			<p>
				<a href={HOOKS}>All endpoints</a>
			</p>
			<h1>{endpoint.testMode ? <TestBadge /> : null} Endpoint</h1>
			<p class="secret">{endpoint.url}</p>
			{endpoint.testMode ? (
				<p class="muted">Registered with a test key: it receives only test-mode events.</p>
			) : null}
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			<ErrorNotice error={props.error} targets={form.targets} />
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
				<label for={form.id("url")}>URL</label>
				<input {...form.input("url")} type="url" required value={props.typed?.url ?? endpoint.url} />
				<EventChoices chosen={props.typed?.events ?? endpoint.events} error={props.error} />
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
					<div class="table-wrap">
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
												<code>{cutText(a.responseBody ?? a.error ?? "", 200)}</code>
											</td>
										</tr>
									))}
							</tbody>
						</table>
					</div>
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
	if (q.created)
		return q.created === "again"
			? "This form was already sent: this is the endpoint it added."
			: "Endpoint added.";
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

webhookDeliveryPages.get("/:id", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	return c.html(await EndpointPage({ c, endpoint, notice: noticeOf(c.req.query()) }));
});

webhookDeliveryPages.post("/:id/edit", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	const form = await formOf(c);
	const typed = { url: field(form, "url"), events: eventsOf(form) };
	const parsed = updateWebhookBody.safeParse(typed);
	if (!parsed.success) {
		return c.html(
			await EndpointPage({
				c,
				endpoint,
				typed,
				error: { message: "Nothing was changed.", fields: formIssues(parsed.error.issues) },
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
		return c.html(await EndpointPage({ c, endpoint, typed, error: describe(error) }), refusalStatus(error));
	}
});

webhookDeliveryPages.post("/:id/toggle", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	const form = await formOf(c);
	const value = field(form, "active");
	if (value !== "true" && value !== "false") {
		const fields = { active: "Must be true or false" };
		return c.html(
			await EndpointPage({ c, endpoint, error: { message: "Nothing was changed.", fields } }),
			422,
		);
	}
	const active = value === "true";
	const updated = await changeEndpoint(c.env, endpoint, { active }, c.get("now"));
	return c.redirect(`${HOOKS}/${updated.id}?${active ? "enabled" : "disabled"}=1`, 303);
});

webhookDeliveryPages.post("/:id/delete", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	await removeEndpoint(c.env, endpoint);
	return c.redirect(`${HOOKS}?deleted=1`, 303);
});

webhookDeliveryPages.post("/:id/test", async (c) => {
	const endpoint = await endpointOf(c);
	if (!endpoint) return notFoundPage(c);
	const { row } = await sendTestEvent(c.env, endpoint, c.get("now"));
	return c.redirect(`${HOOKS}/${endpoint.id}?sent=${row.outcome}`, 303);
});

webhookDeliveryPages.post("/:id/deliveries/:deliveryId/redeliver", async (c) => {
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
