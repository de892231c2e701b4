import type { AnswerScore, PlannedQuestion } from "../src/interviewer/types";
import type { InterviewState, Question } from "../src/interviews/core/model";

/** A scheduled interview's state, for unit tests of pure code. */
export function interviewState(overrides: Partial<InterviewState> = {}): InterviewState {
	return {
		id: "int_AAAAAAAAAAAAAAAAAAAAAAAA",
		accountId: "acc_test",
		environment: "production",
		testMode: false,
		status: "scheduled",
		candidateEmail: "ada@example.com",
		candidateName: null,
		joinedAt: null,
		position: "Backend Engineer",
		skills: ["TypeScript", "SQL"],
		difficulty: "intermediate",
		durationMinutes: 30,
		companyName: "Acme",
		instructions: null,
		scheduledAt: 1_800_000_000_000,
		startedAt: null,
		completedAt: null,
		cancelledAt: null,
		cancellationReason: null,
		joinToken: "token",
		appUrl: "https://app.example.com",
		noShowEmitted: false,
		creditsCharged: 1,
		creditsRefunded: 0,
		plan: null,
		currentQuestion: null,
		transcript: [],
		completionReason: null,
		results: null,
		analytics: null,
		analyzedAt: null,
		createdAt: 1_799_000_000_000,
		updatedAt: 1_799_000_000_000,
		version: 1,
		...overrides,
	};
}

/** The interviewer's full question behind `question` (rubric and follow-ups), for transcript entries. */
export function plannedQuestion(
	question: Question,
	overrides: Partial<PlannedQuestion> = {},
): PlannedQuestion {
	return {
		...question,
		bank_id: "sql-indexes",
		topic: "indexes",
		category: "technical",
		concepts: [{ name: "b-tree", keywords: ["b-tree"] }],
		follow_ups: ["When would you not add an index?"],
		time_budget_seconds: 300,
		expected_words: 120,
		...overrides,
	};
}

/** The interviewer's assessment of an answer to `question` scored `score`, for transcript entries. */
export function answerScore(
	question: Question,
	score: number,
	overrides: Partial<AnswerScore> = {},
): AnswerScore {
	return {
		question_id: question.id,
		skill: question.skill,
		difficulty: question.difficulty,
		score,
		components: {
			coverage: 0.8,
			explanation: 0.8,
			content: 0.8,
			depth: 0.8,
			structure: 0.8,
			timing: 0.8,
			relevance: 0.8,
			communication: 0.8,
		},
		matched: [],
		missed: [],
		word_count: 40,
		response_seconds: 5,
		follow_up: null,
		excerpt: "",
		source: "offline",
		feedback: null,
		...overrides,
	};
}
