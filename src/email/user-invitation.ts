import { type Block, renderHtml, renderText } from "./document";
import { formatUtc, oneLine } from "./format";

/**
 * Stands where the invitation link goes in the stored text and HTML; the consumer puts the link
 * in when it sends (`src/email/user-email.ts`). Caller text never carries it (`withoutPlaceholder`).
 */
export const LINK_PLACEHOLDER = "{{invitation_link}}";

export interface UserInvitationDetails {
	/** The account's company name. */
	companyName: string;
	role: "owner" | "member";
	/** Who invited, when an owner did (the Team page); null for the admin API. */
	invitedBy: string | null;
	/** Epoch ms: the link stops working then. */
	expiresAt: number;
}

function withoutPlaceholder(value: string): string {
	// Until none is left: removing one can join the text around it into another.
	let text = oneLine(value);
	while (text.includes(LINK_PLACEHOLDER)) text = text.replaceAll(LINK_PLACEHOLDER, "");
	return text;
}

export function userInvitationSubject(d: UserInvitationDetails): string {
	return `You are invited to ${withoutPlaceholder(d.companyName)}'s interview dashboard`;
}

/**
 * The invitation to a dashboard user: subject, text and HTML from one structured source (as the
 * candidate notices), with `LINK_PLACEHOLDER` where the link goes. Caller text is escaped by
 * `renderHtml`.
 */
export function renderUserInvitation(d: UserInvitationDetails): {
	subject: string;
	text: string;
	html: string;
} {
	const company = withoutPlaceholder(d.companyName);
	const subject = userInvitationSubject(d);
	const who = d.invitedBy ? `${withoutPlaceholder(d.invitedBy)} has invited you` : "You have been invited";
	const can =
		d.role === "owner"
			? "As an owner you can schedule interviews, read results, and manage API keys, webhooks and the team."
			: "As a member you can schedule interviews, follow them live and read their results.";
	const blocks: Block[] = [
		{ kind: "paragraph", parts: ["Hello,"] },
		{
			kind: "paragraph",
			parts: [
				`${who} to join ${company} on the interview dashboard as ${d.role === "owner" ? "an owner" : "a member"}. ${can}`,
			],
		},
		{ kind: "button", text: "Choose your password", href: LINK_PLACEHOLDER },
		{
			kind: "facts",
			rows: [
				{ label: "Link", value: [{ text: LINK_PLACEHOLDER, href: LINK_PLACEHOLDER }] },
				{ label: "Works until", value: [formatUtc(d.expiresAt)] },
			],
		},
		{
			kind: "paragraph",
			parts: [
				"The link works once: it lets you choose a password (at least 12 characters) and signs you in. Do not forward it. If it has expired, ask an owner of the account for a new invitation.",
			],
		},
		{
			kind: "paragraph",
			parts: [
				"If you did not expect this invitation, you can ignore this e-mail: nothing happens until the link is used.",
			],
		},
	];
	return { subject, text: renderText(blocks), html: renderHtml(subject, blocks) };
}
