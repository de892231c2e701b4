import { createApp } from "./app";
import type { Env } from "./env";
import { runHousekeeping } from "./housekeeping";
import { handleQueueBatch } from "./queues";

export { AccountObject } from "./accounts/account-object";
export { InterviewObject } from "./interview/interview-object";

const app = createApp();

export default {
	fetch: app.fetch,
	queue: handleQueueBatch,
	scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
