import { createApp } from "./app";
import { handleQueueBatch } from "./queues";
import { runHousekeeping } from "./scheduled";

export { AccountObject } from "./accounts/account-object";
export { InterviewObject } from "./interviews/object/interview-object";

const app = createApp();

export default {
	fetch: app.fetch,
	queue: handleQueueBatch,
	scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
