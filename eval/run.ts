/**
 * The interviewer's evaluation harness (`npm run eval -- [options]`, docs/interviewer.md).
 *
 * Scores every graded answer of eval/data/<skill>.json with the interviewer's own scoreAnswer on
 * the bank question as the planner hands it out, runs whole interviews (all answers of one kind
 * for one skill -> finalize -> recommendation), and prints the figures per split.
 *
 *   --split tune|holdout|all   which questions (default all: each split reported on its own)
 *   --data <dir>               graded answer files (default eval/data, else eval/samples)
 *   --interviewer offline|openai   in-process implementation (default offline; openai reads
 *                              OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL from the environment)
 *   --base <url> --key <key>   drive the running service over HTTP and the WebSocket instead
 *                              (or the key in EVAL_API_KEY, kept off the command line)
 *   --limit <n>                at most n questions per skill with --base
 *   --json <file>              also write every per-answer record as JSON
 *   --without-misconceptions   leave the bank's misconception lists out (an ablation: how the
 *                              general mechanisms alone judge wrong claims no list anticipated)
 *
 * With the tune split and no --data, eval/tune2 (a second answer set for the tune questions) is
 * reported as its own block after the default set.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { BANKS } from "../src/interviewer/bank";
import { EXPECTED_WORDS } from "../src/interviewer/plan";
import { hash32 } from "../src/interviewer/text";
import type {
	Assessment,
	HistoryEntry,
	Interviewer,
	InterviewPlan,
	PlannedQuestion,
} from "../src/interviewer/types";
import { fmt, mean, spearman } from "./metrics";
import { interviewerFor, UsageError } from "./providers";

export const HONEST = ["expert", "good", "partial", "weak"] as const;
export const ADVERSARIAL = ["keyword_list", "confidently_wrong"] as const;
export const KINDS = [...HONEST, ...ADVERSARIAL, "off_topic", "paraphrase", "empty"] as const;
const GRADE: Record<(typeof HONEST)[number], number> = { expert: 4, good: 3, partial: 2, weak: 1 };

const answerSchema = z.object({
	kind: z.enum(KINDS),
	grade: z.number().int().min(1).max(4).optional(),
	text: z.string(),
	wrong_claims: z.array(z.string()).optional(),
});
const fileSchema = z.object({
	skill: z.string(),
	skill_name: z.string(),
	questions: z.array(
		z.object({
			question_id: z.string(),
			question: z.string(),
			split: z.enum(["tune", "holdout"]),
			answers: z.array(answerSchema),
		}),
	),
});
export type EvalFile = z.infer<typeof fileSchema>;
export type EvalQuestion = EvalFile["questions"][number];
export type Kind = (typeof KINDS)[number];

/** A second set of answers to the tune questions, reported as its own block (eval/tune2/README.md). */
export const TUNE2_DIR = "eval/tune2";

/** Response time used for every answer: well within the budget, so timing never decides. */
export const RESPONSE_SECONDS = 45;
export const BUDGET_SECONDS = 300;

export function loadSet(dir: string): EvalFile[] {
	return readdirSync(dir)
		.filter((f) => f.endsWith(".json"))
		.sort()
		.map((f) => {
			const parsed = fileSchema.safeParse(JSON.parse(readFileSync(join(dir, f), "utf8")));
			if (!parsed.success) throw new Error(`${f}: ${parsed.error.message}`);
			return parsed.data;
		});
}

/**
 * `--without-misconceptions`: the bank's per-question misconception lists are left out, so the
 * figures show how answers fare on the general mechanisms alone (links, their direction, the
 * caps), as wrong claims no list anticipated would.
 */
export const ablation = { withoutMisconceptions: false };

/** The bank question as the planner hands it out (selectQuestion's shape), at a given position. */
export function planned(bankId: string, index = 0, total = 1): PlannedQuestion {
	for (const bank of BANKS) {
		const q = bank.questions.find((x) => x.id === bankId);
		if (!q) continue;
		return {
			id: `q${index + 1}_${hash32(`eval:${bankId}`).toString(36)}`,
			text: q.text,
			skill: bank.name,
			difficulty: q.difficulty,
			index,
			total,
			bank_id: q.id,
			topic: q.topic,
			category: bank.category,
			concepts: q.concepts,
			follow_ups: q.follow_ups,
			misconceptions: ablation.withoutMisconceptions ? [] : q.misconceptions,
			links: q.links,
			time_budget_seconds: BUDGET_SECONDS,
			expected_words: EXPECTED_WORDS[q.difficulty],
		};
	}
	throw new Error(`no bank question ${bankId}`);
}

export interface Scored {
	skill: string;
	question_id: string;
	split: "tune" | "holdout";
	kind: Kind;
	grade: number | null;
	score: number;
	again: number;
	flags: string[];
	misconceptions: string[];
	source: string;
	/** Which answer set, when not the default one ("tune2"). */
	set?: string;
}

export interface InterviewRun {
	skill: string;
	split: "tune" | "holdout";
	kind: Kind;
	assessment: Assessment;
	history: HistoryEntry[];
	deterministic: boolean;
}

function planFor(file: EvalFile, kind: Kind, split: string, total: number): InterviewPlan {
	const bank = BANKS.find((b) => b.key === file.skill);
	const id = `eval_${file.skill}_${kind}_${split}`;
	return {
		version: 1,
		interview_id: id,
		seed: hash32(id),
		position: "Software Engineer",
		company_name: null,
		start_difficulty: "intermediate",
		duration_minutes: total * 5,
		total,
		seconds_per_question: BUDGET_SECONDS,
		skills: [{ name: file.skill_name, bank: file.skill, category: bank?.category ?? "technical" }],
		slots: new Array(total).fill(0),
	};
}

/** Scores every answer twice and runs one interview per skill, split and kind (twice). */
export async function evaluate(
	interviewer: Interviewer,
	files: EvalFile[],
	splits: Array<"tune" | "holdout">,
): Promise<{ scored: Scored[]; interviews: InterviewRun[] }> {
	const scored: Scored[] = [];
	const interviews: InterviewRun[] = [];
	for (const file of files) {
		for (const split of splits) {
			const questions = file.questions.filter((q) => q.split === split);
			const byKind = new Map<Kind, HistoryEntry[]>();
			for (const [i, q] of questions.entries()) {
				const question = planned(q.question_id, i, questions.length);
				for (const a of q.answers) {
					const s = await interviewer.scoreAnswer(question, a.text, RESPONSE_SECONDS);
					const again = await interviewer.scoreAnswer(question, a.text, RESPONSE_SECONDS);
					scored.push({
						skill: file.skill,
						question_id: q.question_id,
						split,
						kind: a.kind,
						grade: a.kind in GRADE ? GRADE[a.kind as keyof typeof GRADE] : null,
						score: s.score,
						again: JSON.stringify(again) === JSON.stringify(s) ? again.score : -1,
						flags: s.review_flags ?? [],
						misconceptions: (s.misconceptions ?? []).map((m) => m.claim),
						source: s.source,
					});
					const list = byKind.get(a.kind) ?? [];
					if (!list.some((h) => h.question.bank_id === question.bank_id)) list.push({ question, score: s });
					byKind.set(a.kind, list);
				}
			}
			for (const [kind, history] of byKind) {
				const plan = planFor(file, kind, split, questions.length);
				const assessment = await interviewer.finalize(plan, history);
				const again = await interviewer.finalize(plan, structuredClone(history));
				interviews.push({
					skill: file.skill,
					split,
					kind,
					assessment,
					history,
					deterministic: JSON.stringify(again) === JSON.stringify(assessment),
				});
			}
		}
	}
	return { scored, interviews };
}

/** Strengths that cite an answer the rubric did not judge correct (a misconception or a bare keyword list). */
export function unsupportedStrengths(run: InterviewRun): string[] {
	return run.assessment.results.strengths.filter((line) =>
		run.history.some(
			(h) =>
				h.score !== null &&
				line.includes(`on ${h.question.topic}`) &&
				((h.score.misconceptions ?? []).length > 0 || (h.score.review_flags ?? []).includes("keyword_list")),
		),
	);
}

/** Misconceptions found in answers that the areas for improvement do not name. */
export function unnamedMisconceptions(run: InterviewRun): string[] {
	const areas = run.assessment.results.areas_for_improvement.join("\n");
	return run.history
		.flatMap((h) => (h.score?.misconceptions ?? []).map((m) => m.claim))
		.filter((c) => !areas.includes(c));
}

export function report(split: string, scored: Scored[], interviews: InterviewRun[]): string {
	const out: string[] = [];
	const line = (s = "") => out.push(s);
	const of = (k: Kind) => scored.filter((s) => s.kind === k);
	const questions = new Set(scored.map((s) => `${s.skill}/${s.question_id}`));
	line(
		`== split: ${split} (${questions.size} questions, ${scored.length} answers, ${new Set(scored.map((s) => s.skill)).size} skills)`,
	);
	for (const k of KINDS) {
		const xs = of(k).map((s) => s.score);
		if (xs.length)
			line(
				`  ${k.padEnd(18)} n=${String(xs.length).padStart(3)}  mean ${fmt(mean(xs)).padStart(5)}  min ${Math.min(...xs)}  max ${Math.max(...xs)}`,
			);
	}
	const honest = scored.filter((s) => s.grade !== null);
	line(
		`  Spearman(grade 1-4, score), honest answers pooled: ${fmt(
			spearman(
				honest.map((s) => s.grade ?? 0),
				honest.map((s) => s.score),
			),
			4,
		)}`,
	);
	const perQuestion = [...questions]
		.map((q) => {
			const h = honest.filter((s) => `${s.skill}/${s.question_id}` === q);
			return spearman(
				h.map((s) => s.grade ?? 0),
				h.map((s) => s.score),
			);
		})
		.filter(Number.isFinite);
	line(`  Spearman per question, mean: ${fmt(mean(perQuestion), 4)}`);
	const goodMean = mean(of("good").map((s) => s.score));
	const partialMean = mean(of("partial").map((s) => s.score));
	const goodOf = (s: Scored) =>
		scored.find((x) => x.kind === "good" && x.skill === s.skill && x.question_id === s.question_id)?.score;
	line(
		`  "good" threshold: the same question's good answer (per question) and the split's good mean ${fmt(goodMean)}`,
	);
	for (const k of ADVERSARIAL) {
		const xs = of(k);
		if (!xs.length) continue;
		const atGoodQ = xs.filter((s) => {
			const g = goodOf(s);
			return g !== undefined && s.score >= g;
		}).length;
		const atGoodMean = xs.filter((s) => s.score >= goodMean).length;
		line(
			`  ${k}: mean ${fmt(mean(xs.map((s) => s.score)))} (partial mean ${fmt(partialMean)}); >= its question's good: ${atGoodQ}/${xs.length} (${fmt((100 * atGoodQ) / xs.length)}%); >= good mean: ${atGoodMean}/${xs.length}`,
		);
	}
	const flagged = of("confidently_wrong").filter((s) => s.misconceptions.length > 0).length;
	if (of("confidently_wrong").length)
		line(
			`  confidently_wrong answers with a misconception found: ${flagged}/${of("confidently_wrong").length}`,
		);
	const kl = of("keyword_list").filter((s) => s.flags.includes("keyword_list")).length;
	if (of("keyword_list").length)
		line(`  keyword_list answers flagged keyword_list: ${kl}/${of("keyword_list").length}`);
	const falseMis = honest.filter((s) => (s.grade ?? 0) >= 3 && s.misconceptions.length > 0);
	line(
		`  expert/good answers with a misconception found (false alarms): ${falseMis.length}/${honest.filter((s) => (s.grade ?? 0) >= 3).length}`,
	);
	line(
		`  paraphrase mean ${fmt(mean(of("paraphrase").map((s) => s.score)))} vs weak mean ${fmt(mean(of("weak").map((s) => s.score)))}`,
	);
	const maxOf = (k: Kind) => (of(k).length ? Math.max(...of(k).map((s) => s.score)) : Number.NaN);
	line(`  off_topic max ${maxOf("off_topic")}, empty max ${maxOf("empty")}`);
	const sources = new Map<string, number>();
	for (const s of scored) sources.set(s.source, (sources.get(s.source) ?? 0) + 1);
	line(`  decided by: ${[...sources].map(([k, n]) => `${k} ${n}`).join(", ")}`);
	line(
		`  determinism: ${scored.filter((s) => s.again !== s.score).length} of ${scored.length} answers differed when scored again; ${interviews.filter((r) => !r.deterministic).length} of ${interviews.length} interviews differed`,
	);
	line("  whole interviews (one per skill, all answers of one kind): recommendations");
	for (const k of KINDS) {
		const runs = interviews.filter((r) => r.kind === k);
		if (!runs.length) continue;
		const count = (rec: string) => runs.filter((r) => r.assessment.results.recommendation === rec).length;
		line(
			`    ${k.padEnd(18)} hire ${count("hire")}  maybe ${count("maybe")}  no_hire ${count("no_hire")}  overall mean ${fmt(mean(runs.map((r) => r.assessment.results.overall_score)))}`,
		);
	}
	const badStrengths = interviews.flatMap(unsupportedStrengths);
	const unnamed = interviews.flatMap(unnamedMisconceptions);
	line(
		`  strengths citing an answer not judged correct: ${badStrengths.length}; misconceptions found but not named in areas: ${unnamed.length}`,
	);
	return out.join("\n");
}

const USAGE = `npm run eval -- [options]

  --split tune|holdout|all     which questions to score (default all, each split reported apart)
  --data <dir>                 another answer set of the same format (eval/tune2, eval/holdout2 ...)
  --interviewer <kind>         offline (default) or openai (OPENAI_BASE_URL, OPENAI_MODEL, OPENAI_API_KEY)
  --without-misconceptions     leave every misconception list out (the general mechanisms alone)
  --json <file>                write every scored answer to a file
  --base <url> --key <key>     drive the running service over the WebSocket instead (or EVAL_API_KEY)
  --limit <n>                  with --base: questions per skill (default 3)
  --help                       this text

docs/interviewer.md, "Evaluation", says what each figure means.`;

/** The command line, or null after printing why it cannot be read (exit code 2). */
function argsOf(argv: string[]) {
	try {
		return parseArgs({ args: argv, options: OPTIONS }).values;
	} catch (error) {
		console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
		return null;
	}
}

const OPTIONS = {
	split: { type: "string", default: "all" },
	data: { type: "string" },
	interviewer: { type: "string", default: "offline" },
	base: { type: "string" },
	key: { type: "string" },
	limit: { type: "string" },
	json: { type: "string" },
	"without-misconceptions": { type: "boolean", default: false },
	help: { type: "boolean", default: false },
} as const;

async function main() {
	const values = argsOf(process.argv.slice(2));
	if (!values) {
		process.exitCode = 2;
		return;
	}
	if (values.help) {
		console.log(USAGE);
		return;
	}
	ablation.withoutMisconceptions = values["without-misconceptions"] ?? false;
	const dir = values.data ?? (existsSync("eval/data") ? "eval/data" : "eval/samples");
	const files = loadSet(dir);
	const splits =
		values.split === "all" ? (["tune", "holdout"] as const) : [values.split as "tune" | "holdout"];
	if (!splits.every((s) => s === "tune" || s === "holdout"))
		throw new UsageError("--split is tune, holdout or all");
	if (values.base) {
		// EVAL_API_KEY keeps the key off the command line (npm echoes it).
		const key = values.key ?? process.env.EVAL_API_KEY;
		if (!key)
			throw new UsageError(
				"--base needs --key or EVAL_API_KEY (a key with interviews:write and interviews:read)",
			);
		const { runServiceInterviews } = await import("./service");
		await runServiceInterviews({
			base: values.base,
			key,
			files,
			splits: [...splits],
			limit: Number(values.limit ?? 3),
			kinds: KINDS,
			planned: (id) => planned(id),
			responseSeconds: RESPONSE_SECONDS,
		});
		return;
	}
	const interviewer = interviewerFor(values.interviewer ?? "offline", process.env);
	console.log(
		`interviewer: ${interviewer.kind}; data: ${dir}; response time ${RESPONSE_SECONDS} s of a ${BUDGET_SECONDS} s budget`,
	);
	const { scored, interviews } = await evaluate(interviewer, files, [...splits]);
	for (const split of splits)
		console.log(
			report(
				split,
				scored.filter((s) => s.split === split),
				interviews.filter((r) => r.split === split),
			),
		);
	// The second tune set (eval/tune2, tune questions only) is its own block, beside the default set's tune split.
	const second = TUNE2_DIR;
	if (!values.data && splits.includes("tune") && existsSync(second)) {
		const extra = await evaluate(interviewer, loadSet(second), ["tune"]);
		console.log(report(`tune2 (${second})`, extra.scored, extra.interviews));
		scored.push(...extra.scored.map((s) => ({ ...s, set: "tune2" })));
	}
	if (values.json) writeFileSync(values.json, JSON.stringify(scored, null, 1));
}

if (process.argv[1]?.endsWith("run.ts"))
	await main().catch((error: unknown) => {
		if (!(error instanceof UsageError)) throw error;
		console.error(`${error.message}\n\n${USAGE}`);
		process.exitCode = 2;
	});
