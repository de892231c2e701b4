import { createApp } from "./app";
import { SocketIoSessionObject } from "./interviews/room/socketio/session";
import { handleQueueBatch } from "./queues";
import { runHousekeeping } from "./scheduled";

export { AccountObject } from "./accounts/account-object";
export { InterviewObject } from "./interviews/object/interview-object";

const app = createApp();

/**
 * A Socket.IO client's Engine.IO session; it opens each interview namespace through the Worker's
 * own route for the plain channel, so both channels authenticate and refuse alike.
 */
export class SocketIoSession extends SocketIoSessionObject {
	protected override openRoom(request: Request): Promise<Response> {
		const ctx = this.ctx;
		return Promise.resolve(
			app.fetch(request, this.env, {
				waitUntil: (promise: Promise<unknown>) => ctx.waitUntil(promise),
				passThroughOnException: () => {},
				props: {},
			} as unknown as ExecutionContext),
		);
	}
}

export default {
	fetch: app.fetch,
	queue: handleQueueBatch,
	scheduled: (controller, env, ctx) => ctx.waitUntil(runHousekeeping(env, controller.scheduledTime)),
} satisfies ExportedHandler<Env>;
