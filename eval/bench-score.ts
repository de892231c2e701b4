/**
 * Warm cost of scoring one answer offline (`npx tsx eval/bench-score.ts`): the tune questions'
 * answers of eval/data, each made unique per round (as real candidates' answers are, so the
 * per-text cache in language.ts never helps), scored over several rounds; prints ms/answer.
 * Only `tune` questions are read: the held-out split stays out of every loop but the final one.
 */
import { OfflineInterviewer } from "../src/interviewer/offline";
import { loadSet, planned } from "./run";

const files = loadSet("eval/data");
const items = files.flatMap((f) =>
	f.questions
		.filter((q) => q.split === "tune")
		.flatMap((q) => q.answers.map((a) => ({ id: q.question_id, text: a.text }))),
);
const iv = new OfflineInterviewer();
let c = 0;
const rounds = Number(process.argv[2] ?? 5);
/** Answers of about sixty words (40 to 80 with the added sentence), the size the budget is set for. */
const sixty = items.filter((it) => {
	const n = it.text.split(/\s+/).length + 12;
	return n >= 40 && n <= 80;
});
function run(list: typeof items): number {
	const t0 = performance.now();
	for (const it of list)
		iv.scoreAnswer(planned(it.id), `${it.text} In case ${++c} I would look at the slow query log first.`, 30);
	return (performance.now() - t0) / list.length;
}
for (let round = 0; round < rounds; round++) {
	const all = run(items);
	const mid = run(sixty);
	console.log(
		`round ${round}: ${all.toFixed(3)} ms/answer over ${items.length} answers; ${mid.toFixed(3)} ms/answer over the ${sixty.length} of 40-80 words`,
	);
}
