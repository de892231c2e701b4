import { handleEmailBatch } from "./email/consumer";
import { handleWakeBatch, WAKE_QUEUE_NAME } from "./interviews/creation/wake";
import { consumeDeadLetters, consumeWebhookBatch } from "./webhooks/consumer";

/** Routes each queue's batches to its consumer. */
export async function handleQueueBatch(batch: MessageBatch, env: Env): Promise<void> {
	switch (batch.queue) {
		case "interview-emails":
			return handleEmailBatch(batch, env);
		case "interview-webhooks":
			await consumeWebhookBatch(batch, env);
			return;
		case WAKE_QUEUE_NAME:
			return handleWakeBatch(batch, env);
		case "interview-webhooks-dlq":
			await consumeDeadLetters(batch, env);
			return;
		default:
			// No consumer is built for this queue yet: leave the messages to the queue's retry policy.
			console.warn(JSON.stringify({ message: "no consumer for queue", queue: batch.queue }));
			batch.retryAll();
	}
}
