import type { Env } from "../env";
import type { InterviewState } from "./model";

export interface NotificationItem {
	messageId: string;
	template: "invitation" | "update" | "cancellation";
	reason: string | null;
}

/**
 * Hands a candidate notice to the e-mail pipeline. Called from the outbox after the commit, so it
 * may run more than once for the same `messageId`; the pipeline is idempotent by that id.
 */
export async function deliverNotification(
	_env: Env,
	_state: InterviewState,
	_item: NotificationItem,
): Promise<void> {
	// The e-mail pipeline is not built yet (docs/status.md): notices are not sent.
}
