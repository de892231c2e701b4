import { DEFAULT_EMAIL_FROM } from "./model";

/** The From address (and envelope sender): `EMAIL_FROM`, or a placeholder for local runs. */
export function senderAddress(env: Pick<Env, "EMAIL_FROM">): string {
	return env.EMAIL_FROM?.trim() || DEFAULT_EMAIL_FROM;
}

/** The From display name: the inviting company, so the candidate recognises who writes. */
export function senderName(companyName: string | null): string {
	return companyName ? `${companyName} (via Interviews)` : "Interviews";
}
