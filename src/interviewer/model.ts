/** What the interviewer produces: difficulties, recommendations, results and analytics. */

export const DIFFICULTIES = ["junior", "intermediate", "senior", "expert"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];

export const RECOMMENDATIONS = ["hire", "maybe", "no_hire"] as const;
export type Recommendation = (typeof RECOMMENDATIONS)[number];

export interface SkillAssessment {
	skill: string;
	score: number;
	level: string;
}

export interface Results {
	overall_score: number;
	technical_score: number;
	communication_score: number;
	skill_assessments: SkillAssessment[];
	strengths: string[];
	areas_for_improvement: string[];
	recommendation: Recommendation;
	/** How sure the interviewer is of these results (0-1); a person decides (docs/interviewer.md). */
	confidence?: number;
	/** Why a person should look closer (keyword_list, misconception, low_evidence ...). */
	review_flags?: string[];
}

/**
 * One asked question in `analytics.question_difficulty_progression`, in the order asked
 * (docs/interviewer.md): its 0-based index and id, skill, difficulty, answer score (null when it
 * was never answered) and how the difficulty moved from the previous question.
 */
export interface DifficultyStep {
	question_index: number;
	question_id: string;
	skill: string;
	difficulty: Difficulty;
	score: number | null;
	change: "start" | "up" | "down" | "same";
}

export interface Analytics {
	engagement_level: "high" | "medium" | "low";
	response_times: {
		average_seconds: number;
		fastest_seconds: number;
		slowest_seconds: number;
	};
	question_difficulty_progression: DifficultyStep[];
}
