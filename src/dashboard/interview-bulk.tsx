import { Hono } from "hono";
import { findKey } from "../idempotency/idempotency-repo";
import { bulkCreate, MAX_BULK_INTERVIEWS, prepareItem } from "../interviews/creation/bulk-create";
import { getDb } from "../platform/db/client";
import { appUrl } from "../platform/http/urls";
import { withoutControls } from "../platform/http/validation";
import { parseCsv } from "./csv";
import { firstSend, formScope, isFormId, newFormId, sendOnce } from "./form-once";
import { type describe, field, formOf, notFoundPage } from "./guard";
import { LIST, splitList } from "./interview-common";
import { Csrf, ErrorNotice, Page } from "./layout";
import type { DashBindings, DashboardUser } from "./session";

export const interviewBulkPages = new Hono<DashBindings>();

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

/** The largest CSV file a bulk invite takes. */
const MAX_CSV_BYTES = 256 * 1024;

/** How often the outcome's page reloads itself while its send is still running. */
export const SENDING_REFRESH_S = 2;

type Outcome = { line: number; email: string; ok: boolean; text: string; id?: string }[];

interface PreviewRow {
	line: number;
	item: Record<string, unknown>;
	error: string | null;
}

function BulkPage(props: {
	me: DashboardUser;
	csv?: string;
	preview?: PreviewRow[];
	outcome?: Outcome;
	/** The send's own id, given with the preview (see `/bulk/send`). */
	sendId?: string;
	/** The send is still running: the outcome page says so and asks for a reload. */
	sending?: boolean;
	error?: ReturnType<typeof describe> | null;
	defaults?: { position: string; skills: string };
}) {
	const valid = props.preview?.filter((r) => r.error === null).length ?? 0;
	return (
		<Page
			title="Bulk invite"
			user={props.me}
			current={LIST}
			refreshSeconds={props.sending ? SENDING_REFRESH_S : undefined}
		>
			<h1>Bulk invite from a CSV file</h1>
			<p>
				One interview per row, at most {MAX_BULK_INTERVIEWS}. The first line names the columns:{" "}
				<code>candidate_email</code>, <code>candidate_name</code> and optionally <code>position</code>,{" "}
				<code>skills</code> (separated by <code>;</code>), <code>duration_minutes</code>,{" "}
				<code>difficulty</code>, <code>scheduled_at</code>, <code>company_name</code>,{" "}
				<code>instructions</code>, <code>test_mode</code>, <code>send_invitation</code> (<code>true</code> or{" "}
				<code>false</code>). Rows are checked by the same rules as the API's bulk create.
			</p>
			<ErrorNotice error={props.error} />
			{props.sending ? (
				<p role="status">
					These invitations are being sent. This page shows the outcome when they are: it reloads itself every{" "}
					{SENDING_REFRESH_S} seconds until then.
				</p>
			) : null}
			{props.outcome ? (
				<section aria-labelledby="outcome-h">
					<h2 id="outcome-h">Outcome</h2>
					<p role="status">
						{props.outcome.filter((o) => o.ok).length} created, {props.outcome.filter((o) => !o.ok).length}{" "}
						refused.
					</p>
					<div class="table-wrap">
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
					</div>
				</section>
			) : null}
			{props.preview ? (
				<section aria-labelledby="preview-h">
					<h2 id="preview-h">Preview</h2>
					<p role="status">
						{valid} of {props.preview.length} rows are valid.
						{valid < props.preview.length ? " Rows with errors are not sent." : ""}
					</p>
					<div class="table-wrap">
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
					</div>
					{valid > 0 ? (
						<form method="post" action={`${LIST}/bulk/send`}>
							<Csrf user={props.me} />
							<input type="hidden" name="send_id" value={props.sendId ?? ""} />
							<input type="hidden" name="csv" value={props.csv ?? ""} />
							<input type="hidden" name="position" value={props.defaults?.position ?? ""} />
							<input type="hidden" name="skills" value={props.defaults?.skills ?? ""} />
							<button type="submit">Send {valid === 1 ? "1 invitation" : `${valid} invitations`}</button>
						</form>
					) : null}
				</section>
			) : null}
			<h2>Upload</h2>
			<form method="post" action={`${LIST}/bulk`} enctype="multipart/form-data">
				<Csrf user={props.me} />
				{/* The send's id, made with the upload form: the preview a resubmission shows has it too. */}
				<input type="hidden" name="form_id" value={newFormId()} />
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

interviewBulkPages.get("/bulk", (c) => c.html(<BulkPage me={c.var.dashboard} />));

/**
 * A file's text: UTF-8 (with or without its byte-order mark), or UTF-16 when it starts with that
 * encoding's mark (what some spreadsheets save as "Unicode"); null for anything else, which would
 * otherwise turn into garbled column names.
 */
export function csvText(bytes: Uint8Array): string | null {
	const [a, b] = bytes;
	const encoding = a === 0xff && b === 0xfe ? "utf-16le" : a === 0xfe && b === 0xff ? "utf-16be" : "utf-8";
	try {
		const text = new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
		// UTF-16 without its mark decodes as UTF-8 with a NUL beside every ASCII character.
		return text.includes("\u0000") ? null : text;
	} catch {
		return null;
	}
}

/** The CSV's rows as bulk items with the form's position and skills where a row has none. */
function itemsOf(
	csv: string,
	position: string,
	skills: string,
): { items: { line: number; item: Record<string, unknown>; rowError?: string }[]; error?: string } {
	const table = parseCsv(csv);
	if ("error" in table) return { items: [], error: table.error };
	const unknown = table.header.filter((h) => !CSV_FIELDS.includes(h));
	if (unknown.length > 0)
		return {
			items: [],
			// A header cell may hold anything a file can: its control characters are not echoed.
			error: `Unknown columns: ${unknown.map(withoutControls).join(", ")}`,
		};
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
			// A row the file itself got wrong is shown as refused and never sent.
			return r.error ? { line: r.line, item, rowError: r.error } : { line: r.line, item };
		}),
	};
}

interviewBulkPages.post("/bulk", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const file = form.file;
	const defaults = { position: field(form, "position"), skills: field(form, "skills") };
	const refuse = (message: string) =>
		c.html(<BulkPage me={me} defaults={defaults} error={{ message }} />, 422);
	if (!(file instanceof File)) return refuse("Choose a CSV file.");
	if (file.size === 0) return refuse(`The file ${withoutControls(file.name)} is empty.`);
	if (file.size > MAX_CSV_BYTES) return refuse("The file is over 256 KB.");
	const csv = csvText(new Uint8Array(await file.arrayBuffer()));
	if (csv === null)
		return refuse(
			'The file is not UTF-8 text. In a spreadsheet, save it as "CSV UTF-8" (or "CSV" with UTF-8 encoding), then choose it again.',
		);
	const { items, error } = itemsOf(csv, defaults.position, defaults.skills);
	if (error) return c.html(<BulkPage me={me} defaults={defaults} error={{ message: error }} />, 422);
	const now = c.get("now");
	const preview = items.map(({ line, item, rowError }) => {
		if (rowError) return { line, item, error: rowError };
		const checked = prepareItem(item, {}, now);
		return { line, item, error: checked.ok ? null : checked.error.message };
	});
	// The upload form's id becomes the send's: after sending, Back to the preview and its
	// resubmission show the same send, which sends nothing more. A form without one gets a new id.
	const uploadId = field(form, "form_id");
	const sendId = isFormId(uploadId) ? uploadId : newFormId();
	return c.html(<BulkPage me={me} csv={csv} preview={preview} defaults={defaults} sendId={sendId} />);
});

const SENT = `${LIST}/bulk/sent`;

/**
 * Sends the previewed rows once, then redirects to the outcome's own page (post, redirect, get):
 * a reload shows the outcome again, and the same form posted again (a resubmission, a second
 * click) is not sent twice: the preview gave it an id (form-once.ts), kept with the outcome.
 */
interviewBulkPages.post("/bulk/send", async (c) => {
	const me = c.var.dashboard;
	const form = await formOf(c);
	const defaults = { position: field(form, "position"), skills: field(form, "skills") };
	const csv = typeof form.csv === "string" ? form.csv : "";
	const refuse = (message: string) =>
		c.html(<BulkPage me={me} defaults={defaults} error={{ message }} />, 422);
	const sendId = field(form, "send_id");
	if (!isFormId(sendId)) return refuse("This form is out of date. Check the file again, then send it.");
	if (new TextEncoder().encode(csv).length > MAX_CSV_BYTES) return refuse("The file is over 256 KB.");
	const { items, error } = itemsOf(csv, defaults.position, defaults.skills);
	if (error) return refuse(error);
	const now = c.get("now");
	const send = await sendOnce(c, "bulk-send", sendId, { csv, ...defaults });
	if (send.status === "stale") return refuse("This form is out of date. Check the file again, then send it.");
	if (send.status === "changed")
		return refuse("This form was sent with another file. Check the file again, then send it.");
	if (send.status === "first") {
		await firstSend(
			send,
			async () => {
				// Every row the file got right goes to the bulk service, which refuses the bad ones again
				// by the same rules; a row with too many cells is refused here, in its place.
				const sendable = items.filter((i) => !i.rowError);
				const outcomes =
					sendable.length === 0
						? []
						: await bulkCreate(
								c.env,
								me.auth,
								{ interviews: sendable.map((i) => i.item) },
								{ now, appUrl: appUrl(c as never), requestId: c.get("requestId") },
							);
				const sent = outcomes.map((o, i) => ({
					line: sendable[i]?.line ?? i + 2,
					email: o.ok ? o.interview.candidateEmail : (o.candidateEmail ?? ""),
					ok: o.ok,
					text: o.ok ? "" : o.error.message,
					...(o.ok ? { id: o.interview.id } : {}),
				}));
				const refused = items.flatMap((i) =>
					i.rowError
						? [{ line: i.line, email: String(i.item.candidate_email ?? ""), ok: false, text: i.rowError }]
						: [],
				);
				return [...sent, ...refused].sort((a, b) => a.line - b.line);
			},
			(outcome: Outcome) => JSON.stringify({ outcome, defaults }),
		);
	}
	return c.redirect(`${SENT}/${sendId}`, 303);
});

/** A send's outcome, for as long as the account's idempotency keys are kept. */
interviewBulkPages.get("/bulk/sent/:sendId", async (c) => {
	const me = c.var.dashboard;
	const sendId = c.req.param("sendId");
	if (!isFormId(sendId)) return notFoundPage(c);
	const row = await findKey(getDb(c.env.DB), formScope(c, "bulk-send", sendId));
	if (!row || row.expiresAt <= c.get("now")) return notFoundPage(c);
	if (row.state !== "done" || row.responseBody === null) return c.html(<BulkPage me={me} sending />);
	const { outcome, defaults } = JSON.parse(row.responseBody) as {
		outcome: Outcome;
		defaults: { position: string; skills: string };
	};
	return c.html(<BulkPage me={me} outcome={outcome} defaults={defaults} />);
});
