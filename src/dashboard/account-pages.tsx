import { Hono } from "hono";
import { accountStub } from "../accounts/account-stub";
import { creditBalance, findAccount, latestLedgerEntries } from "../accounts/accounts-repo";
import { monthPeriod, monthResetsAt } from "../accounts/quota";
import { monthlyInterviewsUsed } from "../accounts/quota-repo";
import { getDb } from "../platform/db/client";
import { AppError } from "../platform/http/errors";
import { appUrl } from "../platform/http/urls";
import {
	type DashContext,
	describe,
	field,
	formIssues,
	formOf,
	notFoundPage,
	ownerOnly,
	refusalStatus,
} from "./guard";
import { Csrf, ErrorNotice, fmt, formFields, Page } from "./layout";
import { cursorOf, PageLinks, pageOf, SETTINGS_PAGE_SIZE } from "./paging";
import { closeLiveViewsOfUser, type DashBindings } from "./session";
import { createUser, newUserBody } from "./users";
import { deleteUser, findUser, listUsersPage } from "./users-repo";

export const accountPages = new Hono<DashBindings>();

function Meter({ label, used, limit }: { label: string; used: number; limit: number | null }) {
	return (
		<div class="card">
			<div>{label}</div>
			<div class="big">
				{used} <span class="muted">{limit === null ? "(no limit)" : `of ${limit}`}</span>
			</div>
			{limit === null ? null : (
				<meter
					min={0}
					max={limit}
					value={used}
					aria-label={`${label}: ${used} of ${limit}`}
					style="width:100%"
				/>
			)}
		</div>
	);
}

accountPages.get("/account", async (c) => {
	const me = c.var.dashboard;
	const db = getDb(c.env.DB);
	const now = c.get("now");
	const stub = accountStub(c.env, me.auth.accountId);
	const [credits, ledger, monthly, slots, rate] = await Promise.all([
		creditBalance(db, me.auth.accountId),
		latestLedgerEntries(db, me.auth.accountId, 25),
		monthlyInterviewsUsed(db, me.auth.accountId, monthPeriod(now)),
		stub.slotUsage(),
		stub.usage(),
	]);
	const limits = me.auth.limits;
	return c.html(
		<Page title="Account" user={me} current="/dashboard/account">
			<h1>Account: {me.auth.companyName}</h1>
			<p>
				Plan <strong>{me.auth.plan}</strong> · credits balance <strong id="credits">{credits}</strong>
			</p>
			<h2>This month</h2>
			<div class="cards">
				<Meter label="Interviews this month" used={monthly} limit={limits.monthly_interviews} />
				<Meter label="Interviews in progress" used={slots.active} limit={limits.concurrent_interviews} />
				<Meter label="API requests in the last minute" used={rate} limit={limits.requests_per_minute} />
			</div>
			<p class="muted">The monthly count starts again on {fmt(monthResetsAt(now))}.</p>
			<h2>Credits ledger</h2>
			<div class="table-wrap">
				<table>
					<thead>
						<tr>
							<th scope="col">When</th>
							<th scope="col">Kind</th>
							<th scope="col">Amount</th>
							<th scope="col">Interview</th>
						</tr>
					</thead>
					<tbody>
						{ledger.map((e) => (
							<tr>
								<td>{fmt(e.createdAt)}</td>
								<td>{e.kind}</td>
								<td>{e.amount > 0 ? `+${e.amount}` : e.amount}</td>
								<td>
									{e.interviewId ? (
										<a href={`/dashboard/interviews/${e.interviewId}`}>{e.interviewId}</a>
									) : (
										"—"
									)}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
		</Page>,
	);
});

/** The invitation form's fields by the id of each one's input. */
const INVITE_INPUTS = { email: "t-email", role: "t-role" };

async function TeamPage(props: {
	c: DashContext;
	error?: ReturnType<typeof describe> | null;
	invited?: { email: string; url: string } | null;
	notice?: string | null;
	/** The invitation form as it was sent, when it was refused: shown again as typed. */
	typed?: { email: string; role: string };
}) {
	const { c } = props;
	const me = c.var.dashboard;
	const cursor = cursorOf(c, "users");
	const form = formFields(INVITE_INPUTS, props.error);
	const page = pageOf(
		await listUsersPage(getDb(c.env.DB), me.auth.accountId, SETTINGS_PAGE_SIZE, cursor),
		SETTINGS_PAGE_SIZE,
		"users",
	);
	return (
		<Page title="Team" user={me} current="/dashboard/team">
			<h1>Team</h1>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			{props.invited ? (
				<section class="notice ok" aria-labelledby="invited-h">
					<h2 id="invited-h">Invitation for {props.invited.email}</h2>
					<p>
						The link has been e-mailed to them. It works once, for 7 days, and lets them choose a password;
						copy it here if they need it another way.
					</p>
					<p class="secret" id="invite-link">
						{props.invited.url}
					</p>
					<button type="button" class="secondary" data-copy="#invite-link">
						Copy
					</button>
				</section>
			) : null}
			<ErrorNotice error={props.error} targets={form.targets} />
			<div class="table-wrap">
				<table>
					<thead>
						<tr>
							<th scope="col">Email</th>
							<th scope="col">Role</th>
							<th scope="col">Since</th>
							<th scope="col">State</th>
						</tr>
					</thead>
					<tbody>
						{page.rows.map((u) => (
							<tr>
								<td>{u.email}</td>
								<td>{u.role}</td>
								<td>{fmt(u.createdAt)}</td>
								<td>
									{u.passwordHash ? "active" : "invited"}
									{u.id !== me.user.id ? (
										<form
											method="post"
											action={`/dashboard/team/${u.id}/remove`}
											data-confirm={`Remove ${u.email}?`}
										>
											<Csrf user={me} />
											<button type="submit" class="danger" aria-label={`Remove ${u.email}`}>
												Remove
											</button>
										</form>
									) : null}
								</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
			<PageLinks base="/dashboard/team" next={page.next} later={cursor !== null} />
			<h2>Invite someone</h2>
			<form method="post" action="/dashboard/team">
				<Csrf user={me} />
				<label for={form.id("email")}>Email</label>
				<input {...form.input("email")} type="email" required value={props.typed?.email ?? ""} />
				<label for={form.id("role")}>Role</label>
				<select {...form.input("role")}>
					<option value="member">member: interviews only</option>
					<option value="owner" selected={props.typed?.role === "owner"}>
						owner: everything
					</option>
				</select>
				<p>
					<button type="submit">Create invitation</button>
				</p>
			</form>
		</Page>
	);
}

accountPages.use("/team", ownerOnly);
accountPages.use("/team/*", ownerOnly);

accountPages.get("/team", async (c) =>
	c.html(await TeamPage({ c, notice: c.req.query("removed") ? "Removed." : null })),
);

accountPages.post("/team", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const typed = { email: field(form, "email"), role: field(form, "role") };
	const parsed = newUserBody.safeParse(typed);
	if (!parsed.success) {
		return c.html(
			await TeamPage({
				c,
				typed,
				error: { message: "No invitation was made.", fields: formIssues(parsed.error.issues) },
			}),
			422,
		);
	}
	try {
		const account = await findAccount(getDb(c.env.DB), me.auth.accountId);
		const made = await createUser(c.env, {
			accountId: me.auth.accountId,
			companyName: account?.companyName ?? "your company",
			email: parsed.data.email,
			role: parsed.data.role,
			mode: "invite",
			invitedBy: me.user.email,
			now: c.get("now"),
			appUrl: appUrl(c as never),
		});
		c.header("Cache-Control", "no-store");
		return c.html(
			await TeamPage({ c, invited: { email: made.user.email, url: made.invitationUrl ?? "" } }),
			201,
		);
	} catch (error) {
		if (error instanceof AppError)
			return c.html(await TeamPage({ c, typed, error: describe(error) }), refusalStatus(error));
		throw error;
	}
});

accountPages.post("/team/:user_id/remove", async (c) => {
	const me = c.var.dashboard;
	const db = getDb(c.env.DB);
	const user = await findUser(db, me.auth.accountId, c.req.param("user_id"));
	if (!user) return notFoundPage(c);
	if (user.id === me.user.id)
		return c.html(await TeamPage({ c, error: { message: "You cannot remove yourself." } }), 422);
	await closeLiveViewsOfUser(c.env, user.id);
	await deleteUser(db, me.auth.accountId, user.id);
	return c.redirect("/dashboard/team?removed=1", 303);
});
