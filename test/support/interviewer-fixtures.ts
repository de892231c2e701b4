import { BANKS } from "../../src/interviewer";
import { EXPECTED_WORDS } from "../../src/interviewer/plan";
import { findKeyword } from "../../src/interviewer/text";
import type {
	HistoryEntry,
	InterviewContext,
	Interviewer,
	InterviewPlan,
	PlannedQuestion,
} from "../../src/interviewer/types";

export function context(overrides: Partial<InterviewContext> = {}): InterviewContext {
	return {
		interview_id: "int_TestInterview0000000001",
		position: "Backend Engineer",
		skills: ["SQL", "JavaScript"],
		difficulty: "intermediate",
		duration_minutes: 30,
		company_name: "Acme",
		instructions: null,
		...overrides,
	};
}

/** A bank question as the planner would hand it out, for scoring one question directly. */
export function bankQuestion(bankId: string, budgetSeconds = 300): PlannedQuestion {
	for (const bank of BANKS) {
		const q = bank.questions.find((x) => x.id === bankId);
		if (q) {
			return {
				id: `q1_${bankId}`,
				text: q.text,
				skill: bank.name,
				difficulty: q.difficulty,
				index: 0,
				total: 1,
				bank_id: q.id,
				topic: q.topic,
				category: bank.category,
				concepts: q.concepts,
				follow_ups: q.follow_ups,
				...(q.misconceptions ? { misconceptions: q.misconceptions } : {}),
				...(q.links ? { links: q.links } : {}),
				time_budget_seconds: budgetSeconds,
				expected_words: EXPECTED_WORDS[q.difficulty],
			};
		}
	}
	throw new Error(`no bank question ${bankId}`);
}

const LEADS = ["First", "Then", "Also", "In addition", "Finally", "Moreover"];

/** An answer that names every concept of the question with reasons and examples. */
/** A rubric pattern as words: each group's first alternative, markers removed ("^slow|costly & write" -> "slow write"). */
function phraseOf(pattern: string): string {
	return pattern
		.replace(/^\s*>/, "")
		.split("&")
		.map((g) => (g.split("|")[0] ?? "").trim().replace(/^\^/, "").replace(/\*$/, ""))
		.join(" ");
}

export function strongAnswer(q: PlannedQuestion): string {
	const parts = q.concepts.map((c, i) => {
		const keyword = (c.keywords.find((k) => findKeyword(q.text, k) === null) ?? c.keywords[0] ?? "").replace(
			"*",
			"",
		);
		return `${LEADS[i % LEADS.length]}, ${keyword} matters here because it changes how the system behaves in practice, for example when the load grows and the team has to react.`;
	});
	// The causes and effects the rubric expects, each linked in a sentence of its own.
	const links = (q.links ?? []).map(
		(l) => `In practice ${phraseOf(l.cause[0] ?? "")} matters because of ${phraseOf(l.effect[0] ?? "")}.`,
	);
	return `${[...parts, ...links].join(" ")} However, it depends on the context, so I would measure before deciding.`;
}

export const WEAK_ANSWER = "I am not sure, I have not done that.";

/** Runs a whole interview: every planned question asked and answered by `answer`. */
export async function runInterview(
	interviewer: Interviewer,
	plan: InterviewPlan,
	answer: (q: PlannedQuestion, i: number) => string | null,
	seconds: (q: PlannedQuestion, i: number) => number = () => 60,
): Promise<HistoryEntry[]> {
	const history: HistoryEntry[] = [];
	for (let i = 0; i < 25; i++) {
		const q = await interviewer.nextQuestion(plan, history);
		if (!q) break;
		const text = answer(q, i);
		history.push({
			question: q,
			score: text === null ? null : await interviewer.scoreAnswer(q, text, seconds(q, i)),
		});
	}
	return history;
}
