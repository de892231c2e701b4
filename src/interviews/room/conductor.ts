import type {
	Assessment,
	HistoryEntry,
	InterviewContext,
	Interviewer,
	InterviewPlan,
	PlannedQuestion,
} from "../../interviewer";
import type { InterviewState, Json } from "../core/model";

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
						question: entry.planned as unknown as PlannedQuestion,
						score: (entry.assessment as unknown as HistoryEntry["score"]) ?? null,
					},
				]
			: [],
	);
}

export async function planOf(state: InterviewState, interviewer: Interviewer): Promise<InterviewPlan> {
	return (state.plan as unknown as InterviewPlan | null) ?? (await interviewer.plan(contextOf(state)));
}

export async function assessmentOf(state: InterviewState, interviewer: Interviewer): Promise<Assessment> {
	return interviewer.finalize(await planOf(state, interviewer), historyOf(state));
}

export function asJson<T>(value: T): { [key: string]: Json } {
	return value as unknown as { [key: string]: Json };
}
