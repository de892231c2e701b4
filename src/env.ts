import type { AccountObject } from "./accounts/account-object";
import type { InterviewObject } from "./interview/interview-object";

/** Bindings and variables of the Worker, as declared in wrangler.toml and `.dev.vars`. */
export interface Env {
	DB: D1Database;
	INTERVIEW: DurableObjectNamespace<InterviewObject>;
	ACCOUNT: DurableObjectNamespace<AccountObject>;
	WEBHOOK_QUEUE: Queue;
	EMAIL_QUEUE: Queue;
	/** Deferred creation's wake messages (src/interview/wake.ts). */
	WAKE_QUEUE: Queue;
	RECORDINGS: R2Bucket;
	EMAIL: SendEmail;
	/** Workers AI: declared for production only; the service runs without it. */
	AI?: Ai;
	/** `offline` (default) or `workers-ai` (needs `AI`; falls back to offline without it). */
	INTERVIEWER?: string;
	/** Workers AI text model for `INTERVIEWER=workers-ai`; a default is in code. */
	INTERVIEWER_MODEL?: string;
	ENVIRONMENT: string;
	APP_URL: string;
	WS_URL: string;
	ADMIN_TOKEN?: string;
	RECORDING_URL_SECRET?: string;
	WEBHOOK_RETRY_DELAYS?: string;
	WEBHOOK_TIMEOUT_MS?: string;
	/** From address of candidate e-mail; must be on a domain onboarded to Email Sending in production. */
	EMAIL_FROM?: string;
	/** Comma-separated seconds between e-mail send retries (default in `src/email/backoff.ts`). */
	EMAIL_RETRY_DELAYS?: string;
}

type WorkerEnv = Env;

declare global {
	namespace Cloudflare {
		interface Env extends WorkerEnv {}
	}
}

declare global {
	namespace Cloudflare {
		interface GlobalProps {
			mainModule: typeof import("./index");
			durableNamespaces: "InterviewObject" | "AccountObject";
		}
	}
}
