import { assess } from "./assessment";
import { buildPlan, selectQuestion } from "./plan";
import { scoreAnswerOffline } from "./scoring";
import type {
	AnswerScore,
	Assessment,
	HistoryEntry,
	InterviewContext,
	Interviewer,
	InterviewPlan,
	PlannedQuestion,
} from "./types";

/** The default interviewer: the question bank and keyword rubric, offline and deterministic. */
export class OfflineInterviewer implements Interviewer {
	readonly kind = "offline" as const;

	plan(context: InterviewContext): InterviewPlan {
		return buildPlan(context);
	}

	nextQuestion(plan: InterviewPlan, history: HistoryEntry[]): PlannedQuestion | null {
		return selectQuestion(plan, history);
	}

	scoreAnswer(question: PlannedQuestion, answerText: string, responseSeconds: number): AnswerScore {
		return scoreAnswerOffline(question, answerText, responseSeconds);
	}

	finalize(plan: InterviewPlan, history: HistoryEntry[]): Assessment {
		return assess(plan, history);
	}
}
