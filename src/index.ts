import { createApp } from "./app";
import type { Env } from "./env";

export { AccountObject } from "./accounts/account-object";
export { InterviewObject } from "./interview/interview-object";

const app = createApp();

export default {
	fetch: app.fetch,
} satisfies ExportedHandler<Env>;
