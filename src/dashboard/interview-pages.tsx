import { Hono } from "hono";
import { listEvents } from "../events/events-repo";
import { createInterviewBody, listQuery, updateInterviewBody } from "../interviews/api/schemas";
import { interviewUrl } from "../interviews/api/views";
import { type InterviewState, STATUSES } from "../interviews/core/model";
import { bulkCreate, MAX_BULK_INTERVIEWS, prepareItem } from "../interviews/creation/bulk-create";
import { listInterviews } from "../interviews/db/interviews-repo";
import { issueObserverTicket } from "../interviews/room/observer-tickets";
import { commandInterview, createInterview, loadOwnedInterview, scheduledAtOf } from "../interviews/service";
import { getDb } from "../platform/db/client";
import { AppError } from "../platform/http/errors";
import { appUrl, wsUrl } from "../platform/http/urls";
import { issueFields } from "../platform/http/validation";
import { decodeCursor, encodeCursor } from "../platform/lib/cursor";
import { randomBase62 } from "../platform/lib/random";
import { parseIsoDateTime } from "../platform/lib/time";
import { parseCsv } from "./csv";
import { type DashContext, describe, field, formOf, notFoundPage } from "./guard";
import { Csrf, ErrorNotice, fmt, Page } from "./layout";
import { LiveView } from "./live";
import type { DashBindings, DashboardUser } from "./session";

export const interviewPages = new Hono<DashBindings>();

const LIST = "/dashboard/interviews";

/** A date field (`YYYY-MM-DD`) as the API's ISO bound: the start of that day, or its end. */
function dayBound(value: string | undefined, end: boolean): string | undefined {
	if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
	return `${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z`;
}

interviewPages.get("/", async (c) => {
	const me = c.var.dashboard;
	const q = c.req.query();
	const query: Record<string, string> = {};
	if (q.status) query.status = q.status;
	if (q.candidate_email) query.candidate_email = q.candidate_email;
	if (q.position) query.position = q.position;
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
	const parsed = listQuery.safeParse(query);
	let error: { message: string; fields?: Record<string, string> } | null = null;
	let rows: Awaited<ReturnType<typeof listInterviews>>["rows"] = [];
	let total = 0;
	let nextCursor: string | null = null;
	if (!parsed.success) {
		error = { message: "Some filters are not valid.", fields: issueFields(parsed.error.issues) };
	} else {
		const p = parsed.data;
		const cursor = p.cursor === undefined ? null : decodeCursor("interviews", p.cursor);
		const time = (v: string | undefined) => (v === undefined ? undefined : (parseIsoDateTime(v) as number));
		const result = await listInterviews(
			getDb(c.env.DB),
			me.auth.accountId,
			me.auth.dataEnvironment,
			{
				status: p.status,
				candidateEmail: p.candidate_email,
				position: p.position,
				createdAfter: time(p.created_after),
				createdBefore: time(p.created_before),
				scheduledAfter: time(p.scheduled_after),
				scheduledBefore: time(p.scheduled_before),
			},
			p.limit,
			cursor,
		);
		const hasMore = result.rows.length > p.limit;
		rows = hasMore ? result.rows.slice(0, p.limit) : result.rows;
		total = result.total;
		const last = rows.at(-1);
		nextCursor =
			hasMore && last ? encodeCursor("interviews", { createdAt: last.createdAt, id: last.id }) : null;
	}
	const nextParams = new URLSearchParams({ ...q, cursor: nextCursor ?? "" });
	return c.html(
		<Page title="Interviews" user={me} current={LIST}>
			<h1>Interviews</h1>
			<p class="row">
				<a class="button" href={`${LIST}/new`}>
					New interview
				</a>
				<a class="button secondary" href={`${LIST}/bulk`}>
					Bulk invite from CSV
				</a>
			</p>
			<form method="get" action={LIST} aria-label="Filter interviews">
				<div class="row">
					<div>
						<label for="f-status">Status</label>
						<select id="f-status" name="status">
							<option value="">Any</option>
							{STATUSES.map((s) => (
								<option value={s} selected={q.status === s}>
									{s.replace("_", " ")}
								</option>
							))}
						</select>
					</div>
					<div>
						<label for="f-email">Candidate email</label>
						<input id="f-email" name="candidate_email" type="text" value={q.candidate_email ?? ""} />
					</div>
					<div>
						<label for="f-position">Position contains</label>
						<input id="f-position" name="position" type="text" value={q.position ?? ""} />
					</div>
					<div>
						<label for="f-from">Created from</label>
						<input id="f-from" name="created_from" type="date" value={q.created_from ?? ""} />
					</div>
					<div>
						<label for="f-to">Created to</label>
						<input id="f-to" name="created_to" type="date" value={q.created_to ?? ""} />
					</div>
					<div>
						<label for="f-sfrom">Scheduled from</label>
						<input id="f-sfrom" name="scheduled_from" type="date" value={q.scheduled_from ?? ""} />
					</div>
					<div>
						<label for="f-sto">Scheduled to</label>
						<input id="f-sto" name="scheduled_to" type="date" value={q.scheduled_to ?? ""} />
					</div>
					<div>
						<button type="submit">Filter</button>
					</div>
				</div>
			</form>
			<ErrorNotice error={error} />
			<p class="muted">{total} interviews match.</p>
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
								<td>{r.testMode ? "test" : "live"}</td>
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

// ---- create one ----

function NewForm(props: {
	me: DashboardUser;
	values?: Record<string, string>;
	error?: ReturnType<typeof describe> | null;
}) {
	const v = props.values ?? {};
	return (
		<Page title="New interview" user={props.me} current={LIST}>
			<h1>New interview</h1>
			<ErrorNotice error={props.error} />
			<form method="post" action={`${LIST}/new`}>
				<Csrf user={props.me} />
				<label for="candidate_email">Candidate email</label>
				<input
					id="candidate_email"
					name="candidate_email"
					type="email"
					required
					value={v.candidate_email ?? ""}
				/>
				<label for="candidate_name">Candidate name (optional)</label>
				<input id="candidate_name" name="candidate_name" type="text" value={v.candidate_name ?? ""} />
				<label for="position">Position</label>
				<input id="position" name="position" type="text" required value={v.position ?? ""} />
				<label for="skills">Skills (comma-separated)</label>
				<input id="skills" name="skills" type="text" required value={v.skills ?? ""} />
				<label for="duration_minutes">Duration in minutes (15 to 90)</label>
				<input
					id="duration_minutes"
					name="duration_minutes"
					type="number"
					min={15}
					max={90}
					value={v.duration_minutes ?? "30"}
				/>
				<label for="difficulty">Difficulty</label>
				<select id="difficulty" name="difficulty">
					{["junior", "intermediate", "senior", "expert"].map((d) => (
						<option value={d} selected={(v.difficulty ?? "intermediate") === d}>
							{d}
						</option>
					))}
				</select>
				<label for="scheduled_at">Scheduled at (UTC; empty for now)</label>
				<input id="scheduled_at" name="scheduled_at" type="datetime-local" value={v.scheduled_at ?? ""} />
				<label for="instructions">Instructions for the interviewer (optional)</label>
				<textarea id="instructions" name="instructions" rows={3}>
					{v.instructions ?? ""}
				</textarea>
				<p class="check">
					<input
						id="send_invitation"
						name="send_invitation"
						type="checkbox"
						value="true"
						checked={v.send_invitation !== "false"}
					/>{" "}
					<label for="send_invitation" class="inline">
						E-mail the candidate an invitation
					</label>
				</p>
				<p class="check">
					<input
						id="test_mode"
						name="test_mode"
						type="checkbox"
						value="true"
						checked={v.test_mode === "true"}
					/>{" "}
					<label for="test_mode" class="inline">
						Test mode (no credit, no e-mail)
					</label>
				</p>
				<p>
					<button type="submit">Create interview</button>
				</p>
			</form>
		</Page>
	);
}

interviewPages.get("/new", (c) => c.html(<NewForm me={c.var.dashboard} />));

/** A `datetime-local` value (no zone) read as UTC, as the label says. */
function localToIso(value: string): string | undefined {
	if (!value) return undefined;
	return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)
		? `${value.length === 16 ? `${value}:00` : value}Z`
		: value;
}

function splitList(value: string): string[] {
	return value
		.split(/[,;]/)
		.map((s) => s.trim())
		.filter(Boolean);
}

interviewPages.post("/new", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const values = Object.fromEntries(
		[
			"candidate_email",
			"candidate_name",
			"position",
			"skills",
			"duration_minutes",
			"difficulty",
			"scheduled_at",
			"instructions",
		].map((n) => [n, field(form, n)]),
	);
	values.send_invitation = field(form, "send_invitation") === "true" ? "true" : "false";
	values.test_mode = field(form, "test_mode") === "true" ? "true" : "false";
	const raw: Record<string, unknown> = {
		candidate_email: values.candidate_email,
		position: values.position,
		skills: splitList(values.skills ?? ""),
		duration_minutes: Number(values.duration_minutes || 30),
		difficulty: values.difficulty || "intermediate",
		send_invitation: values.send_invitation === "true",
		test_mode: values.test_mode === "true",
	};
	if (values.candidate_name) raw.candidate_name = values.candidate_name;
	if (values.instructions) raw.instructions = values.instructions;
	const at = localToIso(values.scheduled_at ?? "");
	if (at) raw.scheduled_at = at;
	const parsed = createInterviewBody.safeParse(raw);
	if (!parsed.success) {
		const fields = issueFields(parsed.error.issues);
		return c.html(
			<NewForm me={me} values={values} error={{ message: "Check the highlighted fields.", fields }} />,
			422,
		);
	}
	try {
		const now = c.get("now");
		const state = await createInterview(c.env, me.auth, parsed.data, {
			scheduledAt: scheduledAtOf(parsed.data.scheduled_at, now),
			now,
			appUrl: appUrl(c as never),
		});
		return c.redirect(`${LIST}/${state.id}?created=1`, 303);
	} catch (error) {
		return c.html(<NewForm me={me} values={values} error={describe(error)} />, 422);
	}
});

// ---- bulk from CSV ----

const CSV_FIELDS = [
	"candidate_email",
	"candidate_name",
	"position",
	"skills",
	"duration_minutes",
	"difficulty",
	"scheduled_at",
	"company_name",
	"instructions",
	"test_mode",
	"send_invitation",
];

/** A CSV row as a bulk item: lists split on `;`, numbers and flags typed, empty cells left out. */
function rowItem(row: Record<string, string>): Record<string, unknown> {
	const item: Record<string, unknown> = {};
	for (const [name, value] of Object.entries(row)) {
		if (value === "") continue;
		if (name === "skills")
			item.skills = value
				.split(";")
				.map((s) => s.trim())
				.filter(Boolean);
		else if (name === "duration_minutes") item.duration_minutes = /^\d+$/.test(value) ? Number(value) : value;
		else if (name === "test_mode" || name === "send_invitation")
			item[name] = value === "true" ? true : value === "false" ? false : value;
		else item[name] = value;
	}
	return item;
}

interface PreviewRow {
	line: number;
	item: Record<string, unknown>;
	error: string | null;
}

function BulkPage(props: {
	me: DashboardUser;
	csv?: string;
	preview?: PreviewRow[];
	outcome?: { line: number; email: string; ok: boolean; text: string; id?: string }[];
	error?: ReturnType<typeof describe> | null;
	defaults?: { position: string; skills: string };
}) {
	const valid = props.preview?.filter((r) => r.error === null).length ?? 0;
	return (
		<Page title="Bulk invite" user={props.me} current={LIST}>
			<h1>Bulk invite from a CSV file</h1>
			<p>
				One interview per row, at most {MAX_BULK_INTERVIEWS}. The first line names the columns:{" "}
				<code>candidate_email</code>, <code>candidate_name</code> and optionally <code>position</code>,{" "}
				<code>skills</code> (separated by <code>;</code>), <code>duration_minutes</code>,{" "}
				<code>difficulty</code>, <code>scheduled_at</code>, <code>company_name</code>,{" "}
				<code>instructions</code>, <code>test_mode</code>. Rows are checked by the same rules as the API's
				bulk create.
			</p>
			<ErrorNotice error={props.error} />
			{props.outcome ? (
				<section aria-labelledby="outcome-h">
					<h2 id="outcome-h">Outcome</h2>
					<p role="status">
						{props.outcome.filter((o) => o.ok).length} created, {props.outcome.filter((o) => !o.ok).length}{" "}
						refused.
					</p>
					<table>
						<thead>
							<tr>
								<th scope="col">Line</th>
								<th scope="col">Candidate</th>
								<th scope="col">Outcome</th>
							</tr>
						</thead>
						<tbody>
							{props.outcome.map((o) => (
								<tr>
									<td>{o.line}</td>
									<td>{o.email}</td>
									<td>{o.ok ? <a href={`${LIST}/${o.id}`}>Created</a> : <span>Refused: {o.text}</span>}</td>
								</tr>
							))}
						</tbody>
					</table>
				</section>
			) : null}
			{props.preview ? (
				<section aria-labelledby="preview-h">
					<h2 id="preview-h">Preview</h2>
					<p role="status">
						{valid} of {props.preview.length} rows are valid.
						{valid < props.preview.length ? " Rows with errors are not sent." : ""}
					</p>
					<table>
						<thead>
							<tr>
								<th scope="col">Line</th>
								<th scope="col">Candidate</th>
								<th scope="col">Position</th>
								<th scope="col">Check</th>
							</tr>
						</thead>
						<tbody>
							{props.preview.map((r) => (
								<tr>
									<td>{r.line}</td>
									<td>{String(r.item.candidate_email ?? "")}</td>
									<td>{String(r.item.position ?? "")}</td>
									<td>{r.error === null ? "OK" : <strong class="row-error">Error: {r.error}</strong>}</td>
								</tr>
							))}
						</tbody>
					</table>
					{valid > 0 ? (
						<form method="post" action={`${LIST}/bulk/send`}>
							<Csrf user={props.me} />
							<input type="hidden" name="csv" value={props.csv ?? ""} />
							<input type="hidden" name="position" value={props.defaults?.position ?? ""} />
							<input type="hidden" name="skills" value={props.defaults?.skills ?? ""} />
							<button type="submit">Send {valid} invitations</button>
						</form>
					) : null}
				</section>
			) : null}
			<h2>Upload</h2>
			<form method="post" action={`${LIST}/bulk`} enctype="multipart/form-data">
				<Csrf user={props.me} />
				<label for="file">CSV file</label>
				<input id="file" name="file" type="file" accept=".csv,text/csv" required />
				<label for="b-position">Position for rows without one</label>
				<input id="b-position" name="position" type="text" value={props.defaults?.position ?? ""} />
				<label for="b-skills">Skills for rows without any (comma-separated)</label>
				<input id="b-skills" name="skills" type="text" value={props.defaults?.skills ?? ""} />
				<p>
					<button type="submit">Check the file</button>
				</p>
			</form>
		</Page>
	);
}

interviewPages.get("/bulk", (c) => c.html(<BulkPage me={c.var.dashboard} />));

/** The CSV's rows as bulk items with the form's position and skills where a row has none. */
function itemsOf(
	csv: string,
	position: string,
	skills: string,
): { items: { line: number; item: Record<string, unknown> }[]; error?: string } {
	const table = parseCsv(csv);
	if ("error" in table) return { items: [], error: table.error };
	const unknown = table.header.filter((h) => !CSV_FIELDS.includes(h));
	if (unknown.length > 0) return { items: [], error: `Unknown columns: ${unknown.join(", ")}` };
	if (!table.header.includes("candidate_email"))
		return { items: [], error: "The first line must name a candidate_email column." };
	if (table.rows.length === 0) return { items: [], error: "The file has no rows after its header." };
	if (table.rows.length > MAX_BULK_INTERVIEWS)
		return { items: [], error: `At most ${MAX_BULK_INTERVIEWS} rows per file.` };
	return {
		items: table.rows.map((r) => {
			const item = rowItem(r.cells);
			if (item.position === undefined && position) item.position = position;
			if (item.skills === undefined && skills) item.skills = splitList(skills);
			return { line: r.line, item };
		}),
	};
}

interviewPages.post("/bulk", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const file = form.file;
	const defaults = { position: field(form, "position"), skills: field(form, "skills") };
	if (!(file instanceof File) || file.size === 0)
		return c.html(<BulkPage me={me} defaults={defaults} error={{ message: "Choose a CSV file." }} />, 422);
	if (file.size > 256 * 1024)
		return c.html(
			<BulkPage me={me} defaults={defaults} error={{ message: "The file is over 256 KB." }} />,
			422,
		);
	const csv = await file.text();
	const { items, error } = itemsOf(csv, defaults.position, defaults.skills);
	if (error) return c.html(<BulkPage me={me} defaults={defaults} error={{ message: error }} />, 422);
	const now = c.get("now");
	const preview = items.map(({ line, item }) => {
		const checked = prepareItem(item, {}, now);
		return { line, item, error: checked.ok ? null : checked.error.message };
	});
	return c.html(<BulkPage me={me} csv={csv} preview={preview} defaults={defaults} />);
});

interviewPages.post("/bulk/send", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const defaults = { position: field(form, "position"), skills: field(form, "skills") };
	const { items, error } = itemsOf(
		typeof form.csv === "string" ? form.csv : "",
		defaults.position,
		defaults.skills,
	);
	if (error) return c.html(<BulkPage me={me} defaults={defaults} error={{ message: error }} />, 422);
	// Every row goes to the bulk service, which refuses the bad ones again by the same rules.
	const outcomes = await bulkCreate(
		c.env,
		me.auth,
		{ interviews: items.map((i) => i.item) },
		{ now: c.get("now"), appUrl: appUrl(c as never), requestId: c.get("requestId") },
	);
	const outcome = outcomes.map((o, i) => ({
		line: items[i]?.line ?? i + 2,
		email: o.ok ? o.interview.candidateEmail : (o.candidateEmail ?? ""),
		ok: o.ok,
		text: o.ok ? "" : o.error.message,
		...(o.ok ? { id: o.interview.id } : {}),
	}));
	return c.html(<BulkPage me={me} outcome={outcome} defaults={defaults} />);
});

// ---- one interview ----

async function owned(c: DashContext, id: string): Promise<InterviewState | null> {
	try {
		return await loadOwnedInterview(c.env, c.var.dashboard.auth, id);
	} catch (error) {
		if (error instanceof AppError && error.status === 404) return null;
		throw error;
	}
}

async function InterviewPage(props: {
	c: DashContext;
	state: InterviewState;
	error?: ReturnType<typeof describe> | null;
	notice?: string | null;
}) {
	const { c, state } = props;
	const me = c.var.dashboard;
	const link = interviewUrl(appUrl(c as never), state);
	const events = await listEvents(
		getDb(c.env.DB),
		me.auth.accountId,
		state.environment,
		{ interviewId: state.id },
		100,
		null,
	);
	const changeable = state.status === "scheduled";
	const cancellable = state.status === "scheduled" || state.status === "in_progress";
	const base = `${LIST}/${state.id}`;
	const toLocal = (ms: number) => new Date(ms).toISOString().slice(0, 16);
	return (
		<Page title={`Interview with ${state.candidateName ?? state.candidateEmail}`} user={me} current={LIST}>
			<p class="no-print">
				<a href={LIST}>All interviews</a>
			</p>
			<h1>
				{state.position}: {state.candidateName ?? state.candidateEmail}
			</h1>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			<ErrorNotice error={props.error} />
			<dl class="facts">
				<dt>Status</dt>
				<dd>
					<span class="status" id="status">
						{state.status.replace("_", " ")}
					</span>
					{state.testMode ? " (test mode)" : ""}
				</dd>
				<dt>Candidate</dt>
				<dd>
					{state.candidateName ? `${state.candidateName}, ` : ""}
					{state.candidateEmail}
				</dd>
				<dt>Skills</dt>
				<dd>{state.skills.join(", ")}</dd>
				<dt>Difficulty</dt>
				<dd>{state.difficulty}</dd>
				<dt>Scheduled</dt>
				<dd>{fmt(state.scheduledAt)}</dd>
				<dt>Duration</dt>
				<dd>{state.durationMinutes} minutes</dd>
				<dt>Started</dt>
				<dd>{fmt(state.startedAt)}</dd>
				<dt>Completed</dt>
				<dd>{fmt(state.completedAt)}</dd>
				{state.status === "cancelled" ? (
					<>
						<dt>Cancelled</dt>
						<dd>
							{fmt(state.cancelledAt)}
							{state.cancellationReason ? `: ${state.cancellationReason}` : ""}
						</dd>
					</>
				) : null}
			</dl>
			{state.status === "completed" ? (
				<p>
					<a class="button" href={`${base}/results`}>
						View results
					</a>
				</p>
			) : null}
			{state.status !== "completed" && state.status !== "cancelled" ? (
				<section aria-labelledby="link-h">
					<h2 id="link-h">Candidate link</h2>
					<label for="candidate-link">Send this link to the candidate</label>
					<input id="candidate-link" type="text" readonly value={link} />{" "}
					<button type="button" class="secondary" data-copy="#candidate-link">
						Copy
					</button>
				</section>
			) : null}
			{state.status === "in_progress" ? <LiveView id={state.id} csrf={me.session.csrfToken} /> : null}
			{changeable ? (
				<section aria-labelledby="change-h">
					<h2 id="change-h">Reschedule or change</h2>
					<form method="post" action={`${base}/update`}>
						<Csrf user={me} />
						<label for="u-scheduled">Scheduled at (UTC)</label>
						<input
							id="u-scheduled"
							name="scheduled_at"
							type="datetime-local"
							value={toLocal(state.scheduledAt)}
						/>
						<label for="u-email">Candidate email</label>
						<input id="u-email" name="candidate_email" type="email" value={state.candidateEmail} />
						<label for="u-position">Position</label>
						<input id="u-position" name="position" type="text" value={state.position} />
						<label for="u-skills">Skills (comma-separated)</label>
						<input id="u-skills" name="skills" type="text" value={state.skills.join(", ")} />
						<label for="u-duration">Duration in minutes</label>
						<input
							id="u-duration"
							name="duration_minutes"
							type="number"
							min={15}
							max={90}
							value={String(state.durationMinutes)}
						/>
						<label for="u-reason">Reason for rescheduling (optional, sent to the candidate)</label>
						<input id="u-reason" name="reschedule_reason" type="text" />
						<p>
							<button type="submit">Save changes</button>
						</p>
					</form>
				</section>
			) : null}
			{cancellable ? (
				<section aria-labelledby="cancel-h">
					<h2 id="cancel-h">Cancel</h2>
					<form method="post" action={`${base}/cancel`} data-confirm="Cancel this interview?">
						<Csrf user={me} />
						<label for="c-reason">Reason (optional)</label>
						<input id="c-reason" name="reason" type="text" />
						<p>
							<button type="submit" class="danger">
								Cancel interview
							</button>
						</p>
					</form>
				</section>
			) : null}
			<section aria-labelledby="timeline-h">
				<h2 id="timeline-h">Timeline</h2>
				<ol class="timeline">
					{[...events].reverse().map((e) => (
						<li>
							<time datetime={new Date(e.createdAt).toISOString()}>{fmt(e.createdAt)}</time>: {e.type}
						</li>
					))}
				</ol>
			</section>
		</Page>
	);
}

interviewPages.get("/:id", async (c) => {
	const state = await owned(c, c.req.param("id"));
	if (!state) return notFoundPage(c);
	const notice = c.req.query("created")
		? "Interview created."
		: c.req.query("saved")
			? "Changes saved."
			: null;
	return c.html(await InterviewPage({ c, state, notice }));
});

interviewPages.post("/:id/update", async (c) => {
	const me = c.var.dashboard;
	const id = c.req.param("id");
	const state = await owned(c, id);
	if (!state) return notFoundPage(c);
	const form = await formOf(c);
	// Only what changed is sent, as a PATCH would.
	const body: Record<string, unknown> = {};
	const at = localToIso(field(form, "scheduled_at"));
	if (at && parseIsoDateTime(at) !== state.scheduledAt) body.scheduled_at = at;
	const email = field(form, "candidate_email");
	if (email && email !== state.candidateEmail) body.candidate_email = email;
	const position = field(form, "position");
	if (position && position !== state.position) body.position = position;
	const skills = splitList(field(form, "skills"));
	if (skills.length > 0 && skills.join(",") !== state.skills.join(",")) body.skills = skills;
	const duration = field(form, "duration_minutes");
	if (duration && Number(duration) !== state.durationMinutes) body.duration_minutes = Number(duration);
	const reason = field(form, "reschedule_reason");
	if (reason) body.reschedule_reason = reason;
	const parsed = updateInterviewBody.safeParse(body);
	if (!parsed.success) {
		return c.html(
			await InterviewPage({
				c,
				state,
				error: { message: "Nothing was changed.", fields: issueFields(parsed.error.issues) },
			}),
			422,
		);
	}
	try {
		const now = c.get("now");
		const b = parsed.data;
		if (b.scheduled_at !== undefined) scheduledAtOf(b.scheduled_at, now);
		const time = (v: string | undefined) => (v === undefined ? undefined : (parseIsoDateTime(v) as number));
		await commandInterview(
			c.env,
			me.auth,
			id,
			{
				type: "update",
				changes: {
					scheduled_at: time(b.scheduled_at),
					candidate_email: b.candidate_email,
					position: b.position,
					skills: b.skills,
					duration_minutes: b.duration_minutes,
					difficulty: b.difficulty,
					company_name: b.company_name,
					instructions: b.instructions,
				},
				sendNotification: b.send_notification && !state.testMode,
				rescheduleReason: b.reschedule_reason ?? null,
				newJoinToken: randomBase62(32),
			},
			now,
		);
		return c.redirect(`${LIST}/${id}?saved=1`, 303);
	} catch (error) {
		return c.html(await InterviewPage({ c, state, error: describe(error) }), 422);
	}
});

interviewPages.post("/:id/cancel", async (c) => {
	const me = c.var.dashboard;
	const id = c.req.param("id");
	const state = await owned(c, id);
	if (!state) return notFoundPage(c);
	const form = await formOf(c);
	try {
		await commandInterview(
			c.env,
			me.auth,
			id,
			{
				type: "cancel",
				reason: field(form, "reason").slice(0, 1000) || null,
				sendNotification: !state.testMode,
				refundCredits: true,
			},
			c.get("now"),
		);
		return c.redirect(`${LIST}/${id}?saved=1`, 303);
	} catch (error) {
		return c.html(await InterviewPage({ c, state, error: describe(error) }), 422);
	}
});

/** A one-connection observer ticket for the live view: the browser never holds an API key. */
interviewPages.post("/:id/live-ticket", async (c) => {
	const me = c.var.dashboard;
	const state = await owned(c, c.req.param("id"));
	if (!state) return c.json({ error: "not found" }, 404);
	const { ticket, expiresAt } = await issueObserverTicket(
		getDb(c.env.DB),
		{ userId: me.user.id, accountId: me.auth.accountId, interviewId: state.id },
		c.get("now"),
	);
	c.header("Cache-Control", "no-store");
	return c.json({
		url: `${wsUrl(c as never)}/interview/${state.id}?token=${encodeURIComponent(ticket)}`,
		expires_at: new Date(expiresAt).toISOString(),
	});
});

export { owned };
