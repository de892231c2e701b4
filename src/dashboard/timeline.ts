/**
 * An interview page's timeline entry in words, from an event of its log (docs/events.md describes
 * each payload). The event's type is shown beside it, for whoever reads the same events from the
 * API or a webhook. A payload without the expected fields still gets its type's words.
 */

type Data = Record<string, unknown>;

const text = (data: Data, key: string): string | null =>
	typeof data[key] === "string" ? (data[key] as string) : null;
const num = (data: Data, key: string): number | null =>
	typeof data[key] === "number" ? (data[key] as number) : null;

/** An ISO 8601 time as the dashboard shows times: "2030-01-15 14:00 UTC". */
function when(value: string | null): string {
	const ms = value === null ? Number.NaN : Date.parse(value);
	return Number.isNaN(ms)
		? "an unknown time"
		: `${new Date(ms).toISOString().replace("T", " ").slice(0, 16)} UTC`;
}

const FIELD_NAMES: Record<string, string> = {
	scheduled_at: "time",
	candidate_email: "candidate's e-mail",
	candidate_name: "candidate's name",
	position: "position",
	skills: "skills",
	duration_minutes: "duration",
	difficulty: "difficulty",
	company_name: "company name",
	instructions: "instructions",
};

const COMPLETION: Record<string, string> = {
	questions_answered: "every question answered",
	candidate_ended: "ended by the candidate",
	duration_elapsed: "its time ran out",
	test_helper: "by the test helper",
};

const RECOMMENDATION: Record<string, string> = { hire: "hire", maybe: "maybe", no_hire: "no hire" };

const TEMPLATES: Record<string, string> = {
	invitation: "the invitation",
	update: "the change",
	cancellation: "the cancellation",
};

/** What a refund line says: "1 credit refunded". */
function credits(n: number | null): string {
	return n === null ? "Credits refunded" : `${n} credit${n === 1 ? "" : "s"} refunded`;
}

function withReason(sentence: string, reason: string | null): string {
	return reason ? `${sentence} (reason: ${reason})` : sentence;
}

export function timelineText(type: string, data: Data): string {
	switch (type) {
		case "interview.scheduled":
			return `Scheduled for ${when(text(data, "scheduled_at"))}`;
		case "interview.updated": {
			const fields = Array.isArray(data.updated_fields) ? (data.updated_fields as unknown[]) : [];
			const names = fields.filter((f): f is string => typeof f === "string").map((f) => FIELD_NAMES[f] ?? f);
			return names.length ? `Changed: ${names.join(", ")}` : "Changed";
		}
		case "interview.rescheduled":
			return withReason(
				`Moved from ${when(text(data, "previous_scheduled_at"))} to ${when(text(data, "scheduled_at"))}`,
				text(data, "reason"),
			);
		case "interview.cancelled":
			return withReason("Cancelled", text(data, "reason"));
		case "credits.refunded":
			return credits(num(data, "credits_refunded"));
		case "candidate.joined":
			return "The candidate joined";
		case "interview.started":
			return "The interview started";
		case "interview.completed": {
			const reason = COMPLETION[text(data, "completion_reason") ?? ""];
			const minutes = num(data, "duration_minutes");
			const results = (typeof data.results === "object" && data.results !== null ? data.results : {}) as Data;
			const score = num(results, "overall_score");
			const advice = RECOMMENDATION[text(results, "recommendation") ?? ""];
			const parts = [
				reason,
				minutes === null ? null : `${minutes} minute${minutes === 1 ? "" : "s"}`,
				score === null ? null : `overall ${score} of 100`,
				advice ? `advice: ${advice}` : null,
			].filter(Boolean);
			return parts.length ? `Completed: ${parts.join(", ")}` : "Completed";
		}
		case "results.analyzed":
			return "Results analysed";
		case "analysis.ready":
			return "Analysis ready";
		case "candidate.no_show":
			return "The candidate had not joined 15 minutes after the start";
		case "candidate.notified": {
			const template = TEMPLATES[text(data, "template") ?? ""];
			return template ? `E-mailed the candidate ${template}` : "E-mailed the candidate";
		}
		default:
			return type;
	}
}
