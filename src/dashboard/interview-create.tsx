import { Hono } from "hono";
import { createInterviewBody } from "../interviews/api/schemas";
import { DIFFICULTIES } from "../interviews/core/model";
import { createInterview, scheduledAtOf } from "../interviews/service";
import { OutcomeUnknownError } from "../platform/http/errors";
import { appUrl } from "../platform/http/urls";
import { firstSend, newFormId, sendOnce } from "./form-once";
import { describe, field, formIssues, formOf, refusalStatus } from "./guard";
import {
	LIST,
	lineBreaks,
	localToIso,
	MAX_COMPANY_NAME,
	MAX_INSTRUCTIONS,
	splitList,
} from "./interview-common";
import { Csrf, DevBanner, ErrorNotice, formFields, LocalTimeHint, Page, TestBanner } from "./layout";
import { authIn, DASHBOARD_DATA, type DashBindings, type DashboardUser } from "./session";

export const interviewCreatePages = new Hono<DashBindings>();

/** The create form's fields; each input's id is its name. The dev sandbox's form has no flags. */
const CREATE_FIELDS = [
	"candidate_email",
	"candidate_name",
	"position",
	"skills",
	"duration_minutes",
	"difficulty",
	"company_name",
	"scheduled_at",
	"instructions",
] as const;
const FLAG_FIELDS = ["send_invitation", "test_mode"] as const;
type CreateField = (typeof CREATE_FIELDS)[number] | (typeof FLAG_FIELDS)[number];

/** The form's inputs by field: each input's id is its name; the sandbox's form has no flags. */
function createInputs(sandbox: boolean): Record<CreateField, string> {
	const fields: readonly CreateField[] = sandbox ? CREATE_FIELDS : [...CREATE_FIELDS, ...FLAG_FIELDS];
	return Object.fromEntries(fields.map((n) => [n, n])) as Record<CreateField, string>;
}

function NewForm(props: {
	me: DashboardUser;
	/** The form's id: a post of it creates one interview however often it is sent (form-once.ts). */
	formId: string;
	values?: Record<string, string>;
	error?: ReturnType<typeof describe> | null;
	/** Opened from the test data view: test mode is preset and the page says so. */
	testView?: boolean;
	/** Opened from the dev sandbox's view: the interview goes to the sandbox's data. */
	sandbox?: boolean;
}) {
	const v = props.values ?? {};
	const sandbox = props.sandbox ?? v.mode === "dev";
	const testView = !sandbox && (props.testView ?? v.test_mode === "true");
	const form = formFields(createInputs(sandbox), props.error);
	const title = sandbox ? "New dev sandbox interview" : testView ? "New test interview" : "New interview";
	return (
		<Page title={title} user={props.me} current={LIST}>
			{sandbox ? (
				<DevBanner liveHref={`${LIST}/new`}>
					A dev sandbox interview: apart from the account's data, no credit, no e-mail to the candidate,
					deleted after 7 days.
				</DevBanner>
			) : null}
			{testView ? (
				<TestBanner liveHref={`${LIST}/new`}>
					A test interview: no credit, no e-mail to the candidate, and it can be driven to any state with the
					API's test helper.
				</TestBanner>
			) : null}
			<h1>{title}</h1>
			<ErrorNotice error={props.error} targets={form.targets} />
			<form method="post" action={`${LIST}/new`} data-once>
				<Csrf user={props.me} />
				<input type="hidden" name="form_id" value={props.formId} />
				{sandbox ? <input type="hidden" name="mode" value="dev" /> : null}
				<label for={form.id("candidate_email")}>Candidate email</label>
				<input {...form.input("candidate_email")} type="email" required value={v.candidate_email ?? ""} />
				<label for={form.id("candidate_name")}>Candidate name (optional)</label>
				<input {...form.input("candidate_name")} type="text" value={v.candidate_name ?? ""} />
				<label for={form.id("position")}>Position</label>
				<input {...form.input("position")} type="text" required value={v.position ?? ""} />
				<label for={form.id("skills")}>Skills (comma-separated)</label>
				<input {...form.input("skills")} type="text" required value={v.skills ?? ""} />
				<label for={form.id("duration_minutes")}>Duration in minutes (15 to 90)</label>
				<input
					{...form.input("duration_minutes")}
					type="number"
					min={15}
					max={90}
					value={v.duration_minutes ?? "30"}
				/>
				<label for={form.id("difficulty")}>Difficulty</label>
				<select {...form.input("difficulty")}>
					{DIFFICULTIES.map((d) => (
						<option value={d} selected={(v.difficulty ?? "intermediate") === d}>
							{d}
						</option>
					))}
				</select>
				<label for={form.id("company_name")}>
					Company name shown to the candidate (empty for the account's)
				</label>
				<input
					{...form.input("company_name")}
					type="text"
					maxlength={MAX_COMPANY_NAME}
					placeholder={props.me.auth.companyName}
					value={v.company_name ?? ""}
				/>
				<label for={form.id("scheduled_at")}>Scheduled at (UTC; empty for now)</label>
				<input {...form.input("scheduled_at")} type="datetime-local" data-utc value={v.scheduled_at ?? ""} />
				<LocalTimeHint input={form.id("scheduled_at")} />
				<label for={form.id("instructions")}>Instructions for the interviewer (optional)</label>
				<textarea {...form.input("instructions")} rows={3} maxlength={MAX_INSTRUCTIONS}>
					{v.instructions ?? ""}
				</textarea>
				{sandbox ? null : (
					<>
						<p class="check">
							<input
								{...form.input("send_invitation")}
								type="checkbox"
								value="true"
								checked={v.send_invitation !== "false"}
							/>{" "}
							<label for={form.id("send_invitation")} class="inline">
								E-mail the candidate an invitation
							</label>
						</p>
						<p class="check">
							<input
								{...form.input("test_mode")}
								type="checkbox"
								value="true"
								checked={v.test_mode === "true" || (v.test_mode === undefined && testView)}
							/>{" "}
							<label for={form.id("test_mode")} class="inline">
								Test mode (no credit, no e-mail)
							</label>
						</p>
					</>
				)}
				<p>
					<button type="submit">Create interview</button>
				</p>
			</form>
		</Page>
	);
}

interviewCreatePages.get("/new", (c) =>
	c.html(
		<NewForm
			me={c.var.dashboard}
			formId={newFormId()}
			testView={c.req.query("mode") === "test"}
			sandbox={c.req.query("mode") === "dev"}
		/>,
	),
);

interviewCreatePages.post("/new", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const values = Object.fromEntries(CREATE_FIELDS.map((n) => [n, field(form, n)]));
	const sandbox = field(form, "mode") === "dev";
	if (sandbox) values.mode = "dev";
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
	if (values.company_name) raw.company_name = values.company_name;
	if (values.instructions) raw.instructions = lineBreaks(values.instructions);
	const at = localToIso(values.scheduled_at ?? "");
	if (at) raw.scheduled_at = at;
	const formId = field(form, "form_id");
	const again = (status: 409 | 422, message: string, id = newFormId()) =>
		c.html(<NewForm me={me} formId={id} values={values} error={{ message }} />, status);
	const parsed = createInterviewBody.safeParse(raw);
	if (!parsed.success) {
		const fields = formIssues(parsed.error.issues);
		return c.html(
			<NewForm
				me={me}
				formId={formId || newFormId()}
				values={values}
				error={{ message: "Check the fields named below.", fields }}
			/>,
			422,
		);
	}
	const send = await sendOnce(c, "interview", formId, { ...raw, sandbox });
	if (send.status === "stale") return again(409, "This form is out of date. Check it, then send it again.");
	if (send.status === "changed")
		return again(
			409,
			"This form was already sent with other values. Send it again to create another interview.",
		);
	if (send.status === "sent") {
		if (send.result) return c.redirect(`${LIST}/${send.result}?created=again`, 303);
		return again(409, "This form is being sent. The interview will be in the list in a moment.", formId);
	}
	try {
		const now = c.get("now");
		const state = await firstSend(
			send,
			() =>
				createInterview(c.env, authIn(me.auth, sandbox ? "dev" : DASHBOARD_DATA), parsed.data, {
					scheduledAt: scheduledAtOf(parsed.data.scheduled_at, now),
					now,
					appUrl: appUrl(c as never),
				}),
			(made) => made.id,
			// D1 did not confirm the write: the interview may exist, and the form leads to it.
			(error) => {
				if (!(error instanceof OutcomeUnknownError)) return null;
				const ids = error.details?.interview_ids;
				return Array.isArray(ids) && typeof ids[0] === "string" ? ids[0] : null;
			},
		);
		return c.redirect(`${LIST}/${state.id}?created=1`, 303);
	} catch (error) {
		return c.html(
			<NewForm me={me} formId={formId} values={values} error={describe(error)} />,
			refusalStatus(error),
		);
	}
});
