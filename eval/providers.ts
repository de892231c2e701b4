import { OfflineInterviewer } from "../src/interviewer/offline";
import { OpenAiInterviewer } from "../src/interviewer/openai";
import type { Interviewer } from "../src/interviewer/types";

/** A command line the harness cannot run: its message is printed with the usage, without a stack. */
export class UsageError extends Error {}

/**
 * The in-process interviewer the harness drives: `offline`, or `openai` configured from the
 * environment (OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY, optional OPENAI_TIMEOUT_MS).
 */
export function interviewerFor(kind: string, env: Record<string, string | undefined>): Interviewer {
	if (kind === "offline") return new OfflineInterviewer();
	if (kind === "openai") {
		const baseUrl = env.OPENAI_BASE_URL?.trim();
		const model = env.OPENAI_MODEL?.trim();
		if (!baseUrl || !model)
			throw new UsageError("--interviewer openai needs OPENAI_BASE_URL and OPENAI_MODEL");
		const timeout = Number(env.OPENAI_TIMEOUT_MS);
		return new OpenAiInterviewer({
			baseUrl,
			model,
			apiKey: env.OPENAI_API_KEY?.trim() ?? "",
			...(Number.isFinite(timeout) && timeout > 0 ? { timeoutMs: timeout } : {}),
		});
	}
	throw new UsageError(`unknown --interviewer ${kind} (offline or openai)`);
}
