import { OfflineInterviewer } from "./offline";
import { OpenAiInterviewer } from "./openai";
import type { Interviewer } from "./types";
import { type AiTextModel, DEFAULT_AI_MODEL, WorkersAiInterviewer } from "./workers-ai";

export type InterviewerEnv = Partial<
	Pick<
		Env,
		"AI" | "INTERVIEWER" | "INTERVIEWER_MODEL" | "OPENAI_BASE_URL" | "OPENAI_API_KEY" | "OPENAI_MODEL"
	>
>;

/**
 * The interviewer chosen by `INTERVIEWER`: `openai` uses OPENAI_BASE_URL, OPENAI_MODEL and
 * (optional) OPENAI_API_KEY when the first two are set; `workers-ai` uses the `AI` binding when it is bound;
 * anything else, or a missing binding, gives the offline interviewer.
 */
export function createInterviewer(env: InterviewerEnv): Interviewer {
	const base = env.OPENAI_BASE_URL?.trim();
	const model = env.OPENAI_MODEL?.trim();
	if (env.INTERVIEWER?.trim().toLowerCase() === "openai" && base && model)
		return new OpenAiInterviewer({ baseUrl: base, apiKey: env.OPENAI_API_KEY?.trim() ?? "", model });
	if (env.INTERVIEWER?.trim().toLowerCase() === "workers-ai" && env.AI) {
		// The model is configurable, so the binding is used through its untyped (string model) overload.
		return new WorkersAiInterviewer(
			env.AI as unknown as AiTextModel,
			env.INTERVIEWER_MODEL?.trim() || DEFAULT_AI_MODEL,
		);
	}
	return new OfflineInterviewer();
}
