import { AccountObject } from "./accounts/account-object";
import { createApp } from "./app";
import { writeCreations } from "./interviews/creation/creation";
import { interviewStub } from "./interviews/stub";
import { getDb } from "./platform/db/client";
import { handleQueueBatch } from "./queues";
import { runHousekeeping } from "./scheduled";

// The account object writes single creates and starts waiting interviews through interviews/,
// which accounts/ does not import: handed over here, before any object is constructed.
AccountObject.configure({
	commitCreates: (env, writes) => writeCreations(getDb(env.DB), writes),
	interviewsIn: (write) => write.seeds.length,
	startWaiting: (env, interviewId, now) => interviewStub(env, interviewId).startFromWaitingRoom(now),
});

export { InterviewObject } from "./interviews/object/interview-object";
export { AccountObject };

const app = createApp();

export default {
	fetch: app.fetch,
	queue: handleQueueBatch,
	scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
