import { EmailMessage } from "cloudflare:email";

export interface OutgoingEmail {
	/** Envelope sender; equals the From header's address. */
	from: string;
	/** Envelope recipient. */
	to: string;
	/** The whole RFC 5322 message. */
	raw: string;
}

/**
 * Hands one message to a mail transport; throws when it is refused. Injectable so that tests can
 * see the exact message, which the local `send_email` simulation does not expose.
 */
export type EmailSender = (email: OutgoingEmail) => Promise<{ messageId: string | null }>;

/** The production transport: the Worker's `send_email` binding. */
export function bindingSender(binding: SendEmail): EmailSender {
	return async ({ from, to, raw }) => {
		const result = await binding.send(new EmailMessage(from, to, raw));
		return { messageId: result?.messageId ?? null };
	};
}
