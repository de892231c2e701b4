import { type Context, Hono } from "hono";
import { listQuery } from "../interviews/api/schemas";
import { STATUSES } from "../interviews/core/model";
import { listInterviews } from "../interviews/db/interviews-repo";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { decodeCursor, encodeCursor } from "../platform/lib/cursor";
import { parseIsoDateTime } from "../platform/lib/time";
import { formIssues } from "./guard";
import { LIST } from "./interview-common";
import { DevBanner, ErrorNotice, fmt, formFields, Page, TestBadge, TestBanner } from "./layout";
import { DASHBOARD_DATA, type DashBindings, sessionHashOf, signedIn, toSignIn } from "./session";
import { type FoundSession, findSession, readSessionJson, sessionOwner } from "./users-repo";

export const interviewListPages = new Hono<DashBindings>();

/** The API's names of the list's date bounds, as the filter form names its fields. */
const FORM_NAMES: Record<string, string> = {
	created_after: "created_from",
	created_before: "created_to",
	scheduled_after: "scheduled_from",
	scheduled_before: "scheduled_to",
};

/** The filter form's fields by the id of each one's input. */
const FILTER_INPUTS = {
	status: "f-status",
	candidate_email: "f-email",
	position: "f-position",
	created_from: "f-from",
	created_to: "f-to",
	scheduled_from: "f-sfrom",
	scheduled_to: "f-sto",
};

/** A date field (`YYYY-MM-DD`) as the API's ISO bound: the start of that day, or its end. */
function dayBound(value: string | undefined, end: boolean): string | undefined {
	if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
	return `${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z`;
}

/**
 * The list signs its visitor in itself, not through `requireUser`: the page's statement finds the
 * account by the session's token and carries the session, so that the session and the page are
 * one D1 round trip (docs/performance.md). The session is judged (idle, expired) as for any page
 * before anything is shown; rows read for a session that is not valid are dropped.
 */
interviewListPages.get("/", async (c) => {
	const app = c as unknown as Context<AppBindings>;
	const hash = await sessionHashOf(app);
	if (hash === null) return toSignIn(c);
	const db = getDb(c.env.DB);
	const q = c.req.query();
	// Live data unless `?mode=test` (as Stripe's "View test data") or `?mode=dev` (the dev sandbox's
	// data): the mode is carried by the filter form, the next page's link and the "New interview" link.
	const devMode = q.mode === "dev";
	const testMode = q.mode === "test";
	const mode = devMode ? "dev" : testMode ? "test" : null;
	const modeQuery = mode ? `?mode=${mode}` : "";
	const query: Record<string, string> = {};
	if (q.status) query.status = q.status;
	// Typed filters lose the spaces around them, as the create form's fields do.
	const email = q.candidate_email?.trim();
	const position = q.position?.trim();
	if (email) query.candidate_email = email;
	if (position) query.position = position;
	const after = dayBound(q.created_from, false);
	const before = dayBound(q.created_to, true);
	if (after) query.created_after = after;
	if (before) query.created_before = before;
	const scheduledAfter = dayBound(q.scheduled_from, false);
	const scheduledBefore = dayBound(q.scheduled_to, true);
	if (scheduledAfter) query.scheduled_after = scheduledAfter;
	if (scheduledBefore) query.scheduled_before = scheduledBefore;
	if (q.cursor) query.cursor = q.cursor;
	if (q.limit) query.limit = q.limit;
	// A date field that is not a date is named, not dropped.
	const badDays: Record<string, string> = {};
	for (const name of ["created_from", "created_to", "scheduled_from", "scheduled_to"]) {
		if (q[name] && dayBound(q[name], false) === undefined) badDays[name] = "Must be a date (YYYY-MM-DD)";
	}
	const parsed = listQuery.safeParse(query);
	let error: { message: string; fields?: Record<string, string> } | null = null;
	let rows: Awaited<ReturnType<typeof listInterviews>>["rows"] = [];
	let total = 0;
	let nextCursor: string | null = null;
	let found: FoundSession | undefined;
	if (!parsed.success || Object.keys(badDays).length > 0) {
		error = {
			message: "Some filters are not valid.",
			fields: { ...(parsed.success ? {} : formIssues(parsed.error.issues, FORM_NAMES)), ...badDays },
		};
		found = await findSession(db, hash);
	} else {
		const p = parsed.data;
		const cursor = p.cursor === undefined ? null : decodeCursor("interviews", p.cursor);
		const time = (v: string | undefined) => (v === undefined ? undefined : (parseIsoDateTime(v) as number));
		const result = await listInterviews(
			db,
			sessionOwner(hash),
			devMode ? "dev" : DASHBOARD_DATA,
			{
				status: p.status,
				candidateEmail: p.candidate_email,
				position: p.position,
				createdAfter: time(p.created_after),
				createdBefore: time(p.created_before),
				scheduledAfter: time(p.scheduled_after),
				scheduledBefore: time(p.scheduled_before),
				// The sandbox's interviews are all test-mode: its list has no live ones to leave out.
				testMode: devMode ? undefined : testMode,
			},
			p.limit,
			cursor,
		);
		found = readSessionJson(result.carried?.session);
		const hasMore = result.rows.length > p.limit;
		rows = hasMore ? result.rows.slice(0, p.limit) : result.rows;
		total = result.total;
		const last = rows.at(-1);
		nextCursor =
			hasMore && last ? encodeCursor("interviews", { createdAt: last.createdAt, id: last.id }) : null;
	}
	const me = await signedIn(app, hash, found);
	if (!me) return toSignIn(c);
	c.set("dashboard", me);
	const form = formFields(FILTER_INPUTS, error);
	const nextParams = new URLSearchParams({ ...q, cursor: nextCursor ?? "" });
	if (mode) nextParams.set("mode", mode);
	else nextParams.delete("mode");
	return c.html(
		<Page
			title={devMode ? "Dev sandbox interviews" : testMode ? "Test interviews" : "Interviews"}
			user={me}
			current={LIST}
		>
			{devMode ? <DevBanner liveHref={LIST} /> : testMode ? <TestBanner liveHref={LIST} /> : null}
			<h1>
				{devMode ? (
					"Dev sandbox interviews"
				) : testMode ? (
					<>
						<TestBadge /> Test interviews
					</>
				) : (
					"Interviews"
				)}
			</h1>
			<p class="row">
				<a class="button" href={`${LIST}/new${modeQuery}`}>
					{devMode ? "New dev sandbox interview" : testMode ? "New test interview" : "New interview"}
				</a>
				{devMode ? null : (
					<>
						<a class="button secondary" href={`${LIST}/bulk`}>
							Bulk invite from CSV
						</a>
						<a
							class="button secondary"
							id="mode-switch"
							role="switch"
							aria-checked={testMode ? "true" : "false"}
							href={testMode ? LIST : `${LIST}?mode=test`}
						>
							{testMode ? "View live data" : "View test data"}
						</a>
					</>
				)}
				<a class="button secondary" id="sandbox-link" href={devMode ? LIST : `${LIST}?mode=dev`}>
					{devMode ? "Leave the dev sandbox" : "Dev sandbox"}
				</a>
			</p>
			<form method="get" action={LIST} aria-label="Filter interviews">
				{mode ? <input type="hidden" name="mode" value={mode} /> : null}
				<div class="row">
					<div>
						<label for={form.id("status")}>Status</label>
						<select {...form.input("status")}>
							<option value="">Any</option>
							{STATUSES.map((s) => (
								<option value={s} selected={q.status === s}>
									{s.replace("_", " ")}
								</option>
							))}
						</select>
					</div>
					<div>
						<label for={form.id("candidate_email")}>Candidate email</label>
						<input {...form.input("candidate_email")} type="text" value={q.candidate_email ?? ""} />
					</div>
					<div>
						<label for={form.id("position")}>Position contains</label>
						<input {...form.input("position")} type="text" value={q.position ?? ""} />
					</div>
					<div>
						<label for={form.id("created_from")}>Created from</label>
						<input {...form.input("created_from")} type="date" value={q.created_from ?? ""} />
					</div>
					<div>
						<label for={form.id("created_to")}>Created to</label>
						<input {...form.input("created_to")} type="date" value={q.created_to ?? ""} />
					</div>
					<div>
						<label for={form.id("scheduled_from")}>Scheduled from</label>
						<input {...form.input("scheduled_from")} type="date" value={q.scheduled_from ?? ""} />
					</div>
					<div>
						<label for={form.id("scheduled_to")}>Scheduled to</label>
						<input {...form.input("scheduled_to")} type="date" value={q.scheduled_to ?? ""} />
					</div>
					<div>
						<button type="submit">Filter</button>
					</div>
				</div>
			</form>
			<ErrorNotice error={error} targets={form.targets} />
			<p class="muted">
				{total} {devMode ? "dev sandbox" : testMode ? "test" : "live"}{" "}
				{total === 1 ? "interview matches." : "interviews match."}
			</p>
			<div class="table-wrap">
				<table>
					<caption class="muted" style="text-align:left">
						Newest first
					</caption>
					<thead>
						<tr>
							<th scope="col">Candidate</th>
							<th scope="col">Position</th>
							<th scope="col">Status</th>
							<th scope="col">Scheduled</th>
							<th scope="col">Mode</th>
						</tr>
					</thead>
					<tbody>
						{rows.map((r) => (
							<tr>
								<td>
									<a href={`${LIST}/${r.id}`}>{r.candidateName ?? r.candidateEmail}</a>
									{r.candidateName ? <div class="muted">{r.candidateEmail}</div> : null}
								</td>
								<td>{r.position}</td>
								<td>
									<span class="status">{r.status.replace("_", " ")}</span>
									{r.status === "completed" && r.overallScore !== null ? (
										<div>
											<a href={`${LIST}/${r.id}/results`}>Score {r.overallScore}</a>
										</div>
									) : null}
								</td>
								<td>{fmt(r.scheduledAt)}</td>
								<td>{devMode ? "dev" : r.testMode ? <TestBadge /> : "live"}</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
			{nextCursor ? (
				<p>
					<a href={`${LIST}?${nextParams}`} rel="next">
						Next page
					</a>
				</p>
			) : null}
		</Page>,
	);
});
