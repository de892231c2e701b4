import type { PlannedQuestion, Question } from "./types";

/** The question as sent to the candidate and observers: the rubric and follow-ups stay server-side. */
export function publicQuestion(q: PlannedQuestion): Question {
	return { id: q.id, text: q.text, skill: q.skill, difficulty: q.difficulty, index: q.index, total: q.total };
}
