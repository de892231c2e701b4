import { type Block, type Inline, renderHtml, renderText } from "./document";
import { formatDuration, formatUtc, localTimeUrl, oneLine } from "./format";
import type { NoticeDetails } from "./model";

export interface RenderedNotice {
	subject: string;
	text: string;
	html: string;
}

/** Opening the join page is allowed from this long before the start (decisions.md, join). */
/** How long before its start an interview's link opens (the room's own rule). */
export const EARLY_JOIN_MINUTES = 15;

/** The calendar event's title, also used on the local-time page. */
export function eventTitle(details: NoticeDetails): string {
	const company = details.companyName ? ` (${oneLine(details.companyName)})` : "";
	return `Interview: ${oneLine(details.position)}${company}`;
}

export function subjectOf(details: NoticeDetails): string {
	const position = oneLine(details.position);
	const at = details.companyName ? ` at ${oneLine(details.companyName)}` : "";
	switch (details.template) {
		case "invitation":
			return `Interview invitation: ${position}${at}`;
		case "update":
			return `Updated: your interview for ${position}${at}`;
		case "cancellation":
			return details.addressReplaced
				? `Withdrawn: your interview invitation for ${position}${at}`
				: `Cancelled: your interview for ${position}${at}`;
	}
}

/** Renders the subject and both parts of a candidate notice from one structured source. */
export function renderNotice(details: NoticeDetails): RenderedNotice {
	const subject = subjectOf(details);
	const blocks = blocksOf(details);
	return { subject, text: renderText(blocks), html: renderHtml(subject, blocks) };
}

function blocksOf(d: NoticeDetails): Block[] {
	const company = d.companyName ?? "the hiring team";
	const greeting: Block = {
		kind: "paragraph",
		parts: [d.candidateName ? `Hello ${d.candidateName},` : "Hello,"],
	};
	const reason: Block[] = d.reason ? [{ kind: "paragraph", parts: [`Reason given: ${d.reason}`] }] : [];
	switch (d.template) {
		case "invitation":
			return [
				greeting,
				{
					kind: "paragraph",
					parts: [
						d.openAtSend
							? `${d.companyName ?? "A hiring team"} invites you to an interview for the ${d.position} role. The interview is online and open now: you join from your browser with the link below, as soon as you are ready.`
							: `${d.companyName ?? "A hiring team"} invites you to an interview for the ${d.position} role. The interview is online: you join from your browser with the link below, at the time shown.`,
					],
				},
				{ kind: "button", text: "Join the interview", href: d.interviewUrl },
				facts(d, "When"),
				calendarNote(
					"The attached calendar invitation adds the interview to your calendar in your own time zone.",
				),
				...guidance(d, company),
				footer(d, company),
			];
		case "update":
			return [
				greeting,
				{
					kind: "paragraph",
					parts: [
						`${d.companyName ?? "The hiring team"} has changed your interview for the ${d.position} role. Please check the details below: they replace the ones you had before.`,
					],
				},
				...reason,
				{ kind: "button", text: "Join the interview", href: d.interviewUrl },
				facts(d, "When"),
				calendarNote(
					"The attached calendar invitation updates the event in your calendar. Your join link has not changed.",
				),
				...guidance(d, company),
				footer(d, company),
			];
		case "cancellation":
			return [
				greeting,
				{
					kind: "paragraph",
					parts: [
						d.addressReplaced
							? `${d.companyName ?? "The hiring team"} has withdrawn your invitation to the interview for the ${d.position} role, planned for ${formatUtc(d.scheduledAt)}: the interview is no longer scheduled with this e-mail address.`
							: `${d.companyName ?? "The hiring team"} has cancelled your interview for the ${d.position} role, which was planned for ${formatUtc(d.scheduledAt)}.`,
					],
				},
				...reason,
				facts(d, "Was planned for", "Interview link (no longer active)"),
				{
					kind: "paragraph",
					parts: [
						"You do not need to do anything. The link above no longer opens the interview, and the attached calendar update removes the event from your calendar.",
					],
				},
				{
					kind: "paragraph",
					parts: [
						`If you have questions, or would like to be considered for another interview, please contact ${company} directly.`,
					],
				},
				footer(d, company),
			];
	}
}

function facts(d: NoticeDetails, whenLabel: string, linkLabel = "Join link"): Block {
	const cancelled = d.template === "cancellation";
	const rows: { label: string; value: Inline[] }[] = [];
	if (d.companyName) rows.push({ label: "Company", value: [d.companyName] });
	rows.push({ label: "Position", value: [d.position] });
	rows.push({ label: whenLabel, value: [formatUtc(d.scheduledAt)] });
	if (!cancelled) {
		rows.push({
			label: "Your local time",
			value: [
				{
					text: "See this time in your time zone",
					href: localTimeUrl(d.scheduledAt, d.durationMinutes, eventTitle(d)),
				},
			],
		});
	}
	rows.push({ label: "Duration", value: [`about ${formatDuration(d.durationMinutes)}`] });
	rows.push({ label: linkLabel, value: [{ text: d.interviewUrl, href: d.interviewUrl }] });
	return { kind: "facts", rows };
}

function calendarNote(text: string): Block {
	return { kind: "paragraph", parts: [text] };
}

function guidance(d: NoticeDetails, company: string): Block[] {
	const topics = d.skills.length > 0 ? `: ${d.skills.join(", ")}` : "";
	const duration = formatDuration(d.durationMinutes);
	return [
		{ kind: "heading", text: "What to expect" },
		{
			kind: "list",
			items: [
				[`An AI interviewer asks you questions about the skills for this role${topics}.`],
				[
					"You answer in your own words. The questions adapt to your answers, so some may be easier or harder than others.",
				],
				[`It takes about ${duration}. You do not need an account or any software besides a web browser.`],
				[`Your answers and the resulting assessment are shared with ${company}.`],
				[
					`The page may ask to use your microphone: if you allow it, the audio of the interview is recorded and shared with ${company} too. It is optional: you can answer in writing only.`,
				],
			],
		},
		{ kind: "heading", text: "How to prepare" },
		{
			kind: "list",
			items: [
				["Use a computer with an up-to-date web browser and a steady internet connection."],
				[`Find a quiet place where you can concentrate for ${duration}.`],
				[
					d.openAtSend
						? "The link opens the interview now. It is personal to you: please do not share it."
						: `You can open the link from ${EARLY_JOIN_MINUTES} minutes before the start time. The link is personal to you: please do not share it.`,
				],
				["Think of a few examples from your own work or studies that show these skills."],
			],
		},
		{ kind: "heading", text: "Need another time?" },
		{
			kind: "paragraph",
			parts: [
				`If ${d.openAtSend ? "now" : "this time"} does not suit you, contact ${company} (whoever arranged this interview with you) and ask for another time. When they move the interview you will receive an updated invitation, and the same link will still work.`,
			],
		},
	];
}

function footer(d: NoticeDetails, company: string): Block {
	return {
		kind: "paragraph",
		parts: [
			`You received this e-mail because ${company} arranged an interview with you at ${d.candidateEmail}. It was sent automatically.`,
		],
	};
}
