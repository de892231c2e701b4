import {
	type Analytics,
	DIFFICULTIES,
	type DifficultyStep,
	type Recommendation,
	type Results,
} from "./model";
import { clamp, round } from "./text";
import {
	type AnswerScore,
	type Assessment,
	type HistoryEntry,
	type InterviewPlan,
	type PlanSkill,
	REVIEW_FLAGS,
	type ReviewFlag,
} from "./types";

/** `skill_assessments[].level` by score band (lower bound inclusive). */
export const LEVEL_BANDS = [
	{ min: 90, level: "expert" },
	{ min: 75, level: "advanced" },
	{ min: 60, level: "proficient" },
	{ min: 40, level: "developing" },
	{ min: 0, level: "novice" },
] as const;
export type SkillLevel = (typeof LEVEL_BANDS)[number]["level"];

export const HIRE_MIN_OVERALL = 70;
export const HIRE_MIN_SKILL = 40;
export const HIRE_MIN_ANSWERED = 0.75;
export const MAYBE_MIN_OVERALL = 50;

export function levelFor(score: number): SkillLevel {
	return (LEVEL_BANDS.find((b) => score >= b.min) ?? LEVEL_BANDS[4]).level;
}

/** Questions below the interview's level count for less; above it, slightly more (capped at 100). */
export function difficultyFactor(
	asked: HistoryEntry["question"]["difficulty"],
	target: InterviewPlan["start_difficulty"],
): number {
	const gap = DIFFICULTIES.indexOf(asked) - DIFFICULTIES.indexOf(target);
	return gap < 0 ? 1 + 0.15 * gap : 1 + 0.05 * gap;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const quote = (s: string) => `'${s}'`;
const list = (xs: string[]) =>
	xs.length <= 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs.at(-1)}`;

interface SkillOutcome {
	skill: PlanSkill;
	score: number;
}

function skillOutcomes(plan: InterviewPlan, history: HistoryEntry[]): SkillOutcome[] {
	const out: SkillOutcome[] = [];
	for (const skill of plan.skills) {
		const entries = history.filter((h) => h.question.skill === skill.name);
		if (entries.length === 0) continue;
		const adjusted = entries.map((h) =>
			clamp((h.score?.score ?? 0) * difficultyFactor(h.question.difficulty, plan.start_difficulty), 0, 100),
		);
		out.push({ skill, score: Math.round(mean(adjusted)) });
	}
	return out;
}

function recommend(overall: number, skills: SkillOutcome[], answeredRatio: number): Recommendation {
	const weakest = Math.min(...skills.map((s) => s.score), 100);
	if (overall >= HIRE_MIN_OVERALL && weakest >= HIRE_MIN_SKILL && answeredRatio >= HIRE_MIN_ANSWERED)
		return "hire";
	return overall >= MAYBE_MIN_OVERALL ? "maybe" : "no_hire";
}

/** Below this confidence a `hire` or `no_hire` is held back as `maybe` (docs/interviewer.md). */
export const MIN_DECISIVE_CONFIDENCE = 0.5;

/**
 * The interview's review flags (each answer's, once, in a fixed order, plus low_evidence and
 * signals_disagree) and its confidence: the mean of the answers' confidence, lowered when few
 * questions were answered or the answers' scores disagree widely.
 */
function reviewOfInterview(
	plan: InterviewPlan,
	history: HistoryEntry[],
	answeredRatio: number,
): { flags: ReviewFlag[]; confidence: number } {
	const scores = history.map((h) => h.score).filter((s): s is AnswerScore => s !== null && s.word_count > 0);
	const found = new Set<ReviewFlag>(scores.flatMap((s) => s.review_flags ?? []));
	found.delete("no_answer");
	let confidence = scores.length ? mean(scores.map((s) => s.confidence ?? 0.75)) : 0;
	if (scores.length < 2 || answeredRatio < HIRE_MIN_ANSWERED) {
		found.add("low_evidence");
		confidence *= 0.6;
	}
	const values = scores.map((s) => s.score);
	if (values.length >= 2 && Math.max(...values) - Math.min(...values) >= 60) {
		found.add("signals_disagree");
		confidence *= 0.8;
	}
	if (plan.total === 0) confidence = 0;
	return { flags: REVIEW_FLAGS.filter((f) => found.has(f)), confidence: round(clamp(confidence, 0, 1), 2) };
}

function where(h: HistoryEntry): string {
	return `the ${h.question.skill} question on ${h.question.topic}`;
}

function citeMatches(score: AnswerScore): string {
	const keywords = score.matched.flatMap((m) => m.keywords.slice(0, 1));
	if (keywords.length > 0) return `mentioned ${keywords.slice(0, 3).map(quote).join(", ")}`;
	return `said "${score.matched[0]?.snippet ?? score.excerpt}"`;
}

/**
 * The rubric judged the answer correct: no misconception, not a bare list of terms, on topic, and
 * neither vocabulary without an expected link nor mostly sweeping claims.
 */
export function judgedCorrect(score: AnswerScore): boolean {
	const flags = score.review_flags ?? [];
	return (
		(score.misconceptions ?? []).length === 0 &&
		!flags.includes("keyword_list") &&
		!flags.includes("off_topic") &&
		!flags.includes("contradiction") &&
		!flags.includes("unsupported") &&
		!flags.includes("overclaim")
	);
}

function strengthsOf(history: HistoryEntry[], communication: number): string[] {
	const scored = history.filter(
		(h): h is HistoryEntry & { score: AnswerScore } => h.score !== null && judgedCorrect(h.score),
	);
	const byScore = [...scored].sort(
		(a, b) => b.score.score - a.score.score || a.question.index - b.question.index,
	);
	const strong = byScore.filter((h) => h.score.score >= 60 && h.score.matched.length > 0);
	const out = strong
		.slice(0, 4)
		.map(
			(h) =>
				`Explained ${list(h.score.matched.slice(0, 3).map((m) => m.concept))} in ${where(h)} (${citeMatches(h.score)})`,
		);
	if (out.length === 0) {
		for (const h of byScore.filter((x) => x.score.matched.length > 0).slice(0, 2)) {
			out.push(
				`Showed some knowledge of ${list(h.score.matched.slice(0, 2).map((m) => m.concept))} in ${where(h)} (${citeMatches(h.score)})`,
			);
		}
	}
	const best = [...scored].sort((a, b) => b.score.components.structure - a.score.components.structure)[0];
	if (communication >= 75 && best) {
		out.push(
			`Communicated clearly and in a structured way (e.g. in ${where(best)}: "${best.score.excerpt}")`,
		);
	}
	return out;
}

function areasOf(plan: InterviewPlan, history: HistoryEntry[], communication: number): string[] {
	// Every misconception found is named, whatever else is listed.
	const out: string[] = history.flatMap((h) =>
		(h.score?.misconceptions ?? []).map(
			(m) => `Stated a misconception in ${where(h)}: ${m.claim} (said "${m.quote}")`,
		),
	);
	for (const h of history)
		if (h.score?.review_flags?.includes("keyword_list"))
			out.push(`Listed terms without explaining them in ${where(h)} ("${h.score.excerpt}")`);
	const limit = out.length + 5;
	const byScore = [...history].sort(
		(a, b) => (a.score?.score ?? -1) - (b.score?.score ?? -1) || a.question.index - b.question.index,
	);
	for (const h of byScore) {
		if (out.length >= limit) break;
		const s = h.score;
		if (!s || s.word_count === 0) out.push(`Did not answer ${where(h)}`);
		else if (s.matched.length === 0)
			out.push(
				`Did not address ${where(h)}: the answer ("${s.excerpt}") covered none of ${list(h.question.concepts.slice(0, 3).map((c) => c.name))}`,
			);
		else if (s.missed.length > 0 && s.score < 80)
			out.push(`Did not cover ${list(s.missed.slice(0, 3))} in ${where(h)}`);
	}
	const asked = new Set(history.map((h) => h.question.skill));
	for (const skill of plan.skills)
		if (!asked.has(skill.name))
			out.push(`${skill.name} was not assessed: the interview ended before its question`);
	const answered = history.filter((h) => h.score && h.score.word_count > 0);
	if (answered.length > 0 && communication < 50) {
		const words = Math.round(mean(answered.map((h) => h.score?.word_count ?? 0)));
		out.push(`Answers lacked depth and structure (about ${words} words per answer on average)`);
	}
	return out;
}

function progression(history: HistoryEntry[]): DifficultyStep[] {
	return history.map((h, i) => {
		const prev = history[i - 1]?.question.difficulty;
		const delta =
			prev === undefined ? 0 : DIFFICULTIES.indexOf(h.question.difficulty) - DIFFICULTIES.indexOf(prev);
		return {
			question_index: h.question.index,
			question_id: h.question.id,
			skill: h.question.skill,
			difficulty: h.question.difficulty,
			score: h.score?.score ?? null,
			change: prev === undefined ? "start" : delta > 0 ? "up" : delta < 0 ? "down" : "same",
		};
	});
}

function analyticsOf(plan: InterviewPlan, history: HistoryEntry[]): Analytics {
	const answered = history
		.filter((h) => h.score && h.score.word_count > 0)
		.map((h) => h.score as AnswerScore);
	const times = answered.map((s) => s.response_seconds);
	const ratio = answered.length / Math.max(1, plan.total);
	const words = mean(answered.map((s) => s.word_count));
	const engagement = ratio >= 0.9 && words >= 40 ? "high" : ratio >= 0.6 && words >= 15 ? "medium" : "low";
	return {
		engagement_level: engagement,
		response_times: {
			average_seconds: round(mean(times), 1),
			fastest_seconds: times.length ? Math.min(...times) : 0,
			slowest_seconds: times.length ? Math.max(...times) : 0,
		},
		question_difficulty_progression: progression(history),
	};
}

/** Results and analytics from the plan and every asked question (docs/interviewer.md). */
export function assess(plan: InterviewPlan, history: HistoryEntry[]): Assessment {
	const skills = skillOutcomes(plan, history);
	const technical = skills.filter((s) => s.skill.category === "technical");
	const interpersonal = skills.filter((s) => s.skill.category === "interpersonal");
	const perAnswer = mean(history.map((h) => (h.score?.components.communication ?? 0) * 100));
	const communication = Math.round(
		interpersonal.length ? (perAnswer + mean(interpersonal.map((s) => s.score))) / 2 : perAnswer,
	);
	const technicalScore = Math.round(mean((technical.length ? technical : skills).map((s) => s.score)));
	const overall = Math.round(0.8 * mean(skills.map((s) => s.score)) + 0.2 * communication);
	const answeredRatio =
		history.filter((h) => h.score && h.score.word_count > 0).length / Math.max(1, plan.total);
	const review = reviewOfInterview(plan, history, answeredRatio);
	let recommendation = recommend(overall, skills, answeredRatio);
	// Thin or conflicting evidence, or a hire despite a stated misconception: a person must look.
	const disputed =
		recommendation === "hire" &&
		(review.flags.includes("misconception") || review.flags.includes("contradiction"));
	// A no_hire stands on thin evidence (nothing answered is evidence enough), not on disagreeing signals.
	const heldBack =
		recommendation === "hire"
			? review.confidence < MIN_DECISIVE_CONFIDENCE || disputed
			: recommendation === "no_hire" && review.flags.includes("signals_disagree");
	if (heldBack) {
		recommendation = "maybe";
		// In REVIEW_FLAGS' order, as every other flag is.
		const flags = new Set<ReviewFlag>([...review.flags, "low_evidence"]);
		review.flags = REVIEW_FLAGS.filter((f) => flags.has(f));
	}
	const results: Results = {
		overall_score: overall,
		technical_score: technicalScore,
		communication_score: communication,
		skill_assessments: skills.map((s) => ({ skill: s.skill.name, score: s.score, level: levelFor(s.score) })),
		strengths: strengthsOf(history, communication),
		areas_for_improvement: areasOf(plan, history, communication),
		recommendation,
		confidence: review.confidence,
		review_flags: review.flags,
	};
	return { results, analytics: analyticsOf(plan, history) };
}
