import { OfflineInterviewer } from "./offline";
import type { Interviewer } from "./types";
import { type AiTextModel, DEFAULT_AI_MODEL, WorkersAiInterviewer } from "./workers-ai";

export type InterviewerEnv = Partial<Pick<Env, "AI" | "INTERVIEWER" | "INTERVIEWER_MODEL">>;

/**
 * The interviewer chosen by `INTERVIEWER`: `workers-ai` uses the `AI` binding when it is bound;
 * anything else, or a missing binding, gives the offline interviewer.
 */
export function createInterviewer(env: InterviewerEnv): Interviewer {
	if (env.INTERVIEWER?.trim().toLowerCase() === "workers-ai" && env.AI) {
		// The model is configurable, so the binding is used through its untyped (string model) overload.
		return new WorkersAiInterviewer(
			env.AI as unknown as AiTextModel,
			env.INTERVIEWER_MODEL?.trim() || DEFAULT_AI_MODEL,
		);
	}
	return new OfflineInterviewer();
}
