import { iso, isoOrNull } from "../../platform/lib/time";
import type { InterviewState } from "../core/model";
import type { RoomInterview } from "./protocol";

/** The interview as the room shows it to the candidate and observers. */
export function roomView(state: InterviewState, waiting: boolean): RoomInterview {
	const plan = state.plan as { total?: number } | null;
	return {
		id: state.id,
		status: state.status,
		current_question: state.currentQuestion,
		position: state.position,
		company_name: state.companyName,
		skills: state.skills,
		duration_minutes: state.durationMinutes,
		scheduled_at: iso(state.scheduledAt),
		started_at: isoOrNull(state.startedAt),
		ends_at: state.startedAt === null ? null : iso(state.startedAt + state.durationMinutes * 60_000),
		completed_at: isoOrNull(state.completedAt),
		questions_answered: state.transcript.filter((e) => e.answer !== null).length,
		questions_total: typeof plan?.total === "number" ? plan.total : null,
		waiting,
	};
}
