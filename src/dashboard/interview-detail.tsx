import { Hono } from "hono";
import { listEvents } from "../events/events-repo";
import { cancelQuery, updateInterviewBody } from "../interviews/api/schemas";
import { interviewUrl } from "../interviews/api/views";
import { DIFFICULTIES, type InterviewState } from "../interviews/core/model";
import { IN_PROGRESS_UPDATES } from "../interviews/core/transitions/update";
import { issueObserverTicket } from "../interviews/room/observer-tickets";
import { commandInterview, scheduledAtOf } from "../interviews/service";
import { getDb } from "../platform/db/client";
import { appUrl, wsUrl } from "../platform/http/urls";
import { randomBase62 } from "../platform/lib/random";
import { parseIsoDateTime } from "../platform/lib/time";
import { type DashContext, describe, field, formIssues, formOf, notFoundPage, refusalStatus } from "./guard";
import {
	LIST,
	lineBreaks,
	localToIso,
	MAX_COMPANY_NAME,
	MAX_INSTRUCTIONS,
	notifyChoice,
	owned,
	splitList,
} from "./interview-common";
import {
	Csrf,
	DevBadge,
	DevBanner,
	ErrorNotice,
	fmt,
	formFields,
	LocalTimeHint,
	Page,
	TestBadge,
	TestBanner,
} from "./layout";
import { LiveView } from "./live";
import { authIn, type DashBindings } from "./session";
import { timelineText } from "./timeline";

export const interviewDetailPages = new Hono<DashBindings>();

/** The change form's fields by the id of each one's input. */
const CHANGE_INPUTS = {
	scheduled_at: "u-scheduled",
	candidate_email: "u-email",
	position: "u-position",
	skills: "u-skills",
	duration_minutes: "u-duration",
	difficulty: "u-difficulty",
	company_name: "u-company",
	instructions: "u-instructions",
	reschedule_reason: "u-reason",
	send_notification: "u-notify",
};
type ChangeField = keyof typeof CHANGE_INPUTS;

/**
 * The change form's fields for an interview in progress: what the API lets a PATCH change then
 * (`IN_PROGRESS_UPDATES`). A scheduled interview's form has them all.
 */
const IN_PROGRESS_INPUTS = Object.fromEntries(
	IN_PROGRESS_UPDATES.map((name) => [name, CHANGE_INPUTS[name]]),
) as Record<ChangeField, string>;

/** The cancel form's fields, by the id of each one's input. */
const CANCEL_INPUTS = { reason: "c-reason", send_notification: "c-notify" };

/** A cancellation's reason as the API checks it (1 to 1,000 characters once trimmed), or none. */
const cancelReason = cancelQuery.pick({ reason: true });

/** The longest reasons the API takes, as the cancel and change forms' `maxlength`. */
const MAX_REASON = cancelQuery.shape.reason.unwrap().maxLength ?? undefined;
const MAX_RESCHEDULE_REASON = updateInterviewBody.shape.reschedule_reason.unwrap().maxLength ?? undefined;

/**
 * A form's "e-mail the candidate" box. Unticked, a box sends nothing, so a hidden "false" comes
 * first and the box's "true" follows it when ticked (`notifyChoice`).
 */
function NotifyBox(props: {
	id: string;
	invalid: ReturnType<ReturnType<typeof formFields>["input"]>;
	checked: boolean;
	children: string;
}) {
	return (
		<p class="check">
			<input type="hidden" name="send_notification" value="false" />
			<input {...props.invalid} type="checkbox" value="true" checked={props.checked} />{" "}
			<label for={props.id} class="inline">
				{props.children}
			</label>
		</p>
	);
}

async function InterviewPage(props: {
	c: DashContext;
	state: InterviewState;
	error?: ReturnType<typeof describe> | null;
	notice?: string | null;
	/** The change form as it was sent, when a change was refused: shown again as typed. */
	typed?: Record<string, string>;
	/** The cancel form's reason as it was sent, when the cancellation was refused. */
	typedReason?: string;
	/** The cancel form's e-mail box as it was sent ("true" or "false"), when refused. */
	typedCancelNotify?: string;
}) {
	const { c, state } = props;
	const typed = props.typed;
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
	const sandbox = state.environment === "dev";
	const changeable = state.status === "scheduled" || state.status === "in_progress";
	const scheduled = state.status === "scheduled";
	// The candidate is e-mailed about a change only while scheduled, and never in test mode or the sandbox.
	const notifies = scheduled && !state.testMode && !sandbox;
	const cancellable = state.status === "scheduled" || state.status === "in_progress";
	const base = `${LIST}/${state.id}`;
	const toLocal = (ms: number) => new Date(ms).toISOString().slice(0, 16);
	const change = formFields(scheduled ? CHANGE_INPUTS : IN_PROGRESS_INPUTS, props.error);
	const cancel = formFields(CANCEL_INPUTS, props.error);
	const targets = { ...(changeable ? change.targets : {}), ...(cancellable ? cancel.targets : {}) };
	return (
		<Page
			title={`${sandbox ? "Dev sandbox interview" : state.testMode ? "Test interview" : "Interview"} with ${state.candidateName ?? state.candidateEmail}`}
			user={me}
			current={LIST}
		>
			{sandbox ? (
				<DevBanner>
					A dev sandbox interview (made with a dev key): it costs no credit, e-mails no one, and is deleted 7
					days after it was made.
				</DevBanner>
			) : state.testMode ? (
				<TestBanner>
					Test interview: it costs no credit, e-mails no one, and the API's test helper can drive it.
				</TestBanner>
			) : null}
			<p class="no-print">
				<a href={sandbox ? `${LIST}?mode=dev` : state.testMode ? `${LIST}?mode=test` : LIST}>
					{sandbox ? "All dev sandbox interviews" : state.testMode ? "All test interviews" : "All interviews"}
				</a>
			</p>
			<h1>
				{sandbox ? (
					<>
						<DevBadge />{" "}
					</>
				) : state.testMode ? (
					<>
						<TestBadge />{" "}
					</>
				) : null}
				{state.position}: {state.candidateName ?? state.candidateEmail}
			</h1>
			{props.notice ? (
				<p class="notice ok" role="status">
					{props.notice}
				</p>
			) : null}
			<ErrorNotice error={props.error} targets={targets} />
			<dl class="facts">
				<dt>Status</dt>
				<dd>
					<span class="status" id="status">
						{state.status.replace("_", " ")}
					</span>
					{sandbox ? " (dev sandbox)" : state.testMode ? " (test mode)" : ""}
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
				<dt>Company</dt>
				<dd>{state.companyName ?? "none given"}</dd>
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
					<h2 id="change-h">{scheduled ? "Reschedule or change" : "Change"}</h2>
					{scheduled ? null : (
						<p>
							The interview is in progress: its company name can still change, and the interviewer's
							instructions can be added to.
						</p>
					)}
					<form method="post" action={`${base}/update`}>
						<Csrf user={me} />
						{scheduled ? (
							<>
								<label for={change.id("scheduled_at")}>Scheduled at (UTC)</label>
								<input
									{...change.input("scheduled_at")}
									type="datetime-local"
									data-utc
									value={typed?.scheduled_at ?? toLocal(state.scheduledAt)}
								/>
								<LocalTimeHint input={change.id("scheduled_at")} />
								<label for={change.id("candidate_email")}>Candidate email</label>
								<input
									{...change.input("candidate_email")}
									type="email"
									value={typed?.candidate_email ?? state.candidateEmail}
								/>
								<label for={change.id("position")}>Position</label>
								<input {...change.input("position")} type="text" value={typed?.position ?? state.position} />
								<label for={change.id("skills")}>Skills (comma-separated)</label>
								<input
									{...change.input("skills")}
									type="text"
									value={typed?.skills ?? state.skills.join(", ")}
								/>
								<label for={change.id("duration_minutes")}>Duration in minutes</label>
								<input
									{...change.input("duration_minutes")}
									type="number"
									min={15}
									max={90}
									value={typed?.duration_minutes ?? String(state.durationMinutes)}
								/>
								<label for={change.id("difficulty")}>Difficulty</label>
								<select {...change.input("difficulty")}>
									{DIFFICULTIES.map((d) => (
										<option value={d} selected={(typed?.difficulty ?? state.difficulty) === d}>
											{d}
										</option>
									))}
								</select>
							</>
						) : null}
						<label for={change.id("company_name")}>Company name (shown to the candidate)</label>
						<input
							{...change.input("company_name")}
							type="text"
							maxlength={MAX_COMPANY_NAME}
							value={typed?.company_name ?? state.companyName ?? ""}
						/>
						<label for={change.id("instructions")}>
							{scheduled
								? "Instructions for the interviewer (empty for none)"
								: "Instructions for the interviewer (add to the end; the rest stays)"}
						</label>
						<textarea {...change.input("instructions")} rows={3} maxlength={MAX_INSTRUCTIONS}>
							{typed?.instructions ?? state.instructions ?? ""}
						</textarea>
						{scheduled ? (
							<>
								<label for={change.id("reschedule_reason")}>
									Reason for rescheduling (optional, sent to the candidate)
								</label>
								<input
									{...change.input("reschedule_reason")}
									type="text"
									maxlength={MAX_RESCHEDULE_REASON}
									value={typed?.reschedule_reason ?? ""}
								/>
							</>
						) : null}
						{notifies ? (
							<NotifyBox
								id={change.id("send_notification")}
								invalid={change.input("send_notification")}
								checked={typed?.send_notification !== "false"}
							>
								E-mail the candidate about the change
							</NotifyBox>
						) : null}
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
						<label for={cancel.id("reason")}>Reason (optional)</label>
						<input
							{...cancel.input("reason")}
							type="text"
							maxlength={MAX_REASON}
							value={props.typedReason ?? ""}
						/>
						{notifies ? (
							<NotifyBox
								id={cancel.id("send_notification")}
								invalid={cancel.input("send_notification")}
								checked={props.typedCancelNotify !== "false"}
							>
								E-mail the candidate about the cancellation
							</NotifyBox>
						) : null}
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
							<time datetime={new Date(e.createdAt).toISOString()}>{fmt(e.createdAt)}</time>:{" "}
							{timelineText(e.type, e.data)} <code class="muted">{e.type}</code>
						</li>
					))}
				</ol>
			</section>
		</Page>
	);
}

interviewDetailPages.get("/:id", async (c) => {
	const state = await owned(c, c.req.param("id"));
	if (!state) return notFoundPage(c);
	const created = c.req.query("created");
	const notice = created
		? created === "again"
			? "This form was already sent: this is the interview it created."
			: "Interview created."
		: c.req.query("saved")
			? "Changes saved."
			: c.req.query("cancelled") && state.status === "cancelled"
				? `Interview cancelled.${refunded(state.creditsRefunded)}`
				: null;
	return c.html(await InterviewPage({ c, state, notice }));
});

/** " 1 credit refunded." after a cancellation that refunded, else nothing. */
function refunded(credits: number): string {
	return credits > 0 ? ` ${credits} credit${credits === 1 ? "" : "s"} refunded.` : "";
}

/** Fields the change form shows that an interview must keep: emptied, they are refused, not ignored. */
const KEPT_FIELDS = {
	scheduled_at: "Must not be empty",
	candidate_email: "Must not be empty",
	position: "Must not be empty",
	skills: "Must name at least one skill",
	duration_minutes: "Must not be empty",
} as const;

interviewDetailPages.post("/:id/update", async (c) => {
	const me = c.var.dashboard;
	const id = c.req.param("id");
	const state = await owned(c, id);
	if (!state) return notFoundPage(c);
	const form = await formOf(c);
	// Only what changed is sent, as a PATCH would.
	const body: Record<string, unknown> = {};
	// The field shows the time to the minute: the same minute is no change (an interview scheduled
	// at seconds past it, or "now" with its milliseconds, is not moved or refused as past).
	const at = localToIso(field(form, "scheduled_at"));
	const minute = (ms: number | null) => (ms === null ? null : Math.floor(ms / 60_000));
	if (at && minute(parseIsoDateTime(at)) !== minute(state.scheduledAt)) body.scheduled_at = at;
	const email = field(form, "candidate_email");
	if (email && email !== state.candidateEmail) body.candidate_email = email;
	const position = field(form, "position");
	if (position && position !== state.position) body.position = position;
	const skills = splitList(field(form, "skills"));
	if (skills.length > 0 && skills.join(",") !== state.skills.join(",")) body.skills = skills;
	const duration = field(form, "duration_minutes");
	if (duration && Number(duration) !== state.durationMinutes) body.duration_minutes = Number(duration);
	const difficulty = field(form, "difficulty");
	if (difficulty && difficulty !== state.difficulty) body.difficulty = difficulty;
	// The API has no way to remove a company name: an emptied field is no change.
	const company = field(form, "company_name");
	if (company && company !== state.companyName) body.company_name = company;
	// Instructions can be emptied; a form without the field changes nothing. A browser sends a
	// text area's line breaks as CRLF: the same text is no change.
	if (form.instructions !== undefined) {
		const instructions = lineBreaks(field(form, "instructions"));
		if (instructions !== lineBreaks((state.instructions ?? "").trim())) body.instructions = instructions;
	}
	const reason = field(form, "reschedule_reason");
	if (reason) body.reschedule_reason = reason;
	const notify = notifyChoice(form);
	if (notify === false) body.send_notification = false;
	const typed: Record<string, string> = Object.fromEntries(
		(Object.keys(CHANGE_INPUTS) as ChangeField[])
			.filter((name) => name !== "send_notification")
			.map((name) => [name, field(form, name)]),
	);
	if (notify !== undefined) typed.send_notification = String(notify);
	const emptied = Object.fromEntries(
		Object.entries(KEPT_FIELDS).filter(
			([name]) => form[name] !== undefined && (name === "skills" ? skills.length === 0 : !field(form, name)),
		),
	);
	const changed = Object.keys(body).some((key) => key !== "send_notification" && key !== "reschedule_reason");
	if (Object.keys(emptied).length > 0 || !changed) {
		const fields = Object.keys(emptied).length > 0 ? { fields: emptied } : {};
		return c.html(
			await InterviewPage({ c, state, typed, error: { message: "Nothing was changed.", ...fields } }),
			422,
		);
	}
	const parsed = updateInterviewBody.safeParse(body);
	if (!parsed.success) {
		return c.html(
			await InterviewPage({
				c,
				state,
				typed,
				error: { message: "Nothing was changed.", fields: formIssues(parsed.error.issues) },
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
			authIn(me.auth, state.environment),
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
		return c.html(await InterviewPage({ c, state, typed, error: describe(error) }), refusalStatus(error));
	}
});

interviewDetailPages.post("/:id/cancel", async (c) => {
	const me = c.var.dashboard;
	const id = c.req.param("id");
	const state = await owned(c, id);
	if (!state) return notFoundPage(c);
	const form = await formOf(c);
	const reason = field(form, "reason");
	const notify = notifyChoice(form);
	const typedCancelNotify = notify === undefined ? undefined : String(notify);
	const parsed = cancelReason.safeParse(reason ? { reason } : {});
	if (!parsed.success) {
		return c.html(
			await InterviewPage({
				c,
				state,
				typedReason: reason,
				typedCancelNotify,
				error: { message: "The interview was not cancelled.", fields: formIssues(parsed.error.issues) },
			}),
			422,
		);
	}
	try {
		await commandInterview(
			c.env,
			authIn(me.auth, state.environment),
			id,
			{
				type: "cancel",
				reason: parsed.data.reason ?? null,
				sendNotification: notify !== false && !state.testMode,
				refundCredits: true,
			},
			c.get("now"),
		);
		return c.redirect(`${LIST}/${id}?cancelled=1`, 303);
	} catch (error) {
		return c.html(
			await InterviewPage({ c, state, typedReason: reason, typedCancelNotify, error: describe(error) }),
			refusalStatus(error),
		);
	}
});

/** A one-connection observer ticket for the live view: the browser never holds an API key. */
interviewDetailPages.post("/:id/live-ticket", async (c) => {
	const me = c.var.dashboard;
	const state = await owned(c, c.req.param("id"));
	if (!state) return c.json({ error: "not found" }, 404);
	const { ticket, expiresAt } = await issueObserverTicket(
		getDb(c.env.DB),
		{
			userId: me.user.id,
			accountId: me.auth.accountId,
			interviewId: state.id,
			environment: state.environment,
			sessionHash: me.session.tokenHash,
		},
		c.get("now"),
	);
	c.header("Cache-Control", "no-store");
	return c.json({
		url: `${wsUrl(c as never)}/interview/${state.id}?token=${encodeURIComponent(ticket)}`,
		expires_at: new Date(expiresAt).toISOString(),
	});
});
