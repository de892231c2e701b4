import { fields } from "../interviews/api/schemas";
import type { InterviewState } from "../interviews/core/model";
import { loadOwnedInterview, loadOwnedInterviewWithRecordings } from "../interviews/service";
import { AppError } from "../platform/http/errors";
import { type DashContext, type FormValue, fieldAll } from "./guard";
import { DASHBOARD_ENVIRONMENTS } from "./session";

export const LIST = "/dashboard/interviews";

/** The API's longest company name and instructions, as the create and change forms' `maxlength`. */
export const MAX_COMPANY_NAME = fields.companyName.maxLength ?? undefined;
export const MAX_INSTRUCTIONS = fields.instructions.maxLength ?? undefined;

/**
 * The "e-mail the candidate" box of a form: a hidden "false", then the box's "true" when ticked.
 * Undefined when the form has neither (the API's default applies).
 */
export function notifyChoice(form: Record<string, FormValue>): boolean | undefined {
	const sent = fieldAll(form, "send_notification");
	return sent.length === 0 ? undefined : sent.includes("true");
}

/** A text area's value with its line breaks as LF: browsers send them as CRLF. */
export function lineBreaks(text: string): string {
	return text.replace(/\r\n?/g, "\n");
}

/** A `datetime-local` value (no zone) read as UTC, as the label says. */
export function localToIso(value: string): string | undefined {
	if (!value) return undefined;
	return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)
		? `${value.length === 16 ? `${value}:00` : value}Z`
		: value;
}

export function splitList(value: string): string[] {
	return value
		.split(/[,;]/)
		.map((s) => s.trim())
		.filter(Boolean);
}

export async function owned(c: DashContext, id: string): Promise<InterviewState | null> {
	return orNull(loadOwnedInterview(c.env, c.var.dashboard.auth, id, undefined, DASHBOARD_ENVIRONMENTS));
}

/** `owned`, and whether the interview's recording may have chunks to list (one call to its object). */
export async function ownedWithRecordings(
	c: DashContext,
	id: string,
): Promise<{ state: InterviewState; recordings: boolean } | null> {
	return orNull(loadOwnedInterviewWithRecordings(c.env, c.var.dashboard.auth, id, DASHBOARD_ENVIRONMENTS));
}

/** Another account's interview, or none: a 404 page, not an error. */
async function orNull<T>(read: Promise<T>): Promise<T | null> {
	try {
		return await read;
	} catch (error) {
		if (error instanceof AppError && error.status === 404) return null;
		throw error;
	}
}
