import type {
	Assessment,
	HistoryEntry,
	InterviewContext,
	Interviewer,
	InterviewPlan,
} from "../../interviewer";
import type { InterviewState } from "../core/model";

/** Bridges the stored interview and the interviewer, whose data is kept as plain JSON. */

export function contextOf(state: InterviewState): InterviewContext {
	return {
		interview_id: state.id,
		position: state.position,
		skills: state.skills,
		difficulty: state.difficulty,
		duration_minutes: state.durationMinutes,
		company_name: state.companyName,
		instructions: state.instructions,
	};
}

export function historyOf(state: InterviewState): HistoryEntry[] {
	return state.transcript.flatMap((entry) =>
		entry.planned
			? [
					{
						question: entry.planned,
						score: entry.assessment,
					},
				]
			: [],
	);
}

export async function planOf(state: InterviewState, interviewer: Interviewer): Promise<InterviewPlan> {
	return state.plan ?? (await interviewer.plan(contextOf(state)));
}

export async function assessmentOf(state: InterviewState, interviewer: Interviewer): Promise<Assessment> {
	return interviewer.finalize(await planOf(state, interviewer), historyOf(state));
}
