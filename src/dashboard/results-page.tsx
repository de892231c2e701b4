import { Hono } from "hono";
import type { InterviewState, TranscriptEntry } from "../interviews/core/model";
import { recordingLinks } from "../interviews/recordings/recordings";
import { appUrl } from "../platform/http/urls";
import { cutText } from "../platform/lib/text";
import { notFoundPage } from "./guard";
import { ownedWithRecordings } from "./interview-common";
import { DevBadge, DevBanner, fmt, Page, TestBadge, TestBanner } from "./layout";
import type { DashBindings } from "./session";

export const resultsPage = new Hono<DashBindings>();

const LEVELS = ["junior", "intermediate", "senior", "expert"];

/** Horizontal bars, one per skill, each with its name and score written beside it. */
function SkillChart({ skills }: { skills: { skill: string; score: number; level: string }[] }) {
	const rowH = 30;
	const labelW = 160;
	const barW = 300;
	const height = skills.length * rowH + 10;
	return (
		<svg
			role="img"
			aria-labelledby="skill-chart-title"
			viewBox={`0 0 ${labelW + barW + 110} ${height}`}
			width="100%"
			style="max-width:40rem"
		>
			<title id="skill-chart-title">Score per skill, out of 100</title>
			{skills.map((s, i) => (
				<g>
					<text x={0} y={i * rowH + 20}>
						{s.skill.length > 22 ? `${cutText(s.skill, 21)}…` : s.skill}
					</text>
					<rect x={labelW} y={i * rowH + 6} width={barW} height={18} fill="none" stroke="#767676" />
					<rect
						x={labelW}
						y={i * rowH + 6}
						width={(barW * Math.max(0, Math.min(100, s.score))) / 100}
						height={18}
						fill="#0b57d0"
					/>
					<text x={labelW + barW + 8} y={i * rowH + 20}>
						{s.score} ({s.level})
					</text>
				</g>
			))}
		</svg>
	);
}

/** Difficulty of each question in order, as a stepped line with a marker and label per point. */
function DifficultyChart({
	steps,
}: {
	steps: { question_index: number; difficulty: string; score: number | null }[];
}) {
	const w = 520;
	const h = 190;
	const left = 100;
	const top = 15;
	const plotH = 130;
	const dx = steps.length > 1 ? (w - left - 30) / (steps.length - 1) : 0;
	const y = (d: string) => top + plotH - (LEVELS.indexOf(d) / (LEVELS.length - 1)) * plotH;
	const points = steps.map((s, i) => [left + i * dx, y(s.difficulty)] as const);
	return (
		<svg
			role="img"
			aria-labelledby="diff-chart-title"
			viewBox={`0 0 ${w} ${h}`}
			width="100%"
			style="max-width:40rem"
		>
			<title id="diff-chart-title">Difficulty of each question, in the order asked</title>
			{LEVELS.map((l) => (
				<g>
					<line x1={left} x2={w - 20} y1={y(l)} y2={y(l)} stroke="#ddd" />
					<text x={0} y={y(l) + 4}>
						{l}
					</text>
				</g>
			))}
			<polyline
				points={points.map((p) => p.join(",")).join(" ")}
				fill="none"
				stroke="#1a1a1a"
				stroke-width={2}
			/>
			{points.map(([px, py], i) => (
				<g>
					<circle cx={px} cy={py} r={5} fill="#1a1a1a" />
					<text x={px - 6} y={h - 20}>
						Q{(steps[i]?.question_index ?? i) + 1}
					</text>
				</g>
			))}
			<text x={left} y={h - 2}>
				Question
			</text>
		</svg>
	);
}

/** The answers a strength or an area cites: those of the skills its text names. */
function cited(text: string, transcript: TranscriptEntry[]): TranscriptEntry[] {
	const lower = text.toLowerCase();
	return transcript
		.filter((e) => e.answer !== null && lower.includes(e.question.skill.toLowerCase()))
		.slice(0, 2);
}

function Quote({ entry }: { entry: TranscriptEntry }) {
	return (
		<blockquote>
			<p class="muted">
				Question {entry.question.index + 1} ({entry.question.skill}, score {entry.score ?? "—"}):{" "}
				{entry.question.text}
			</p>
			<p>“{entry.answer}”</p>
		</blockquote>
	);
}

function Findings({
	title,
	id,
	items,
	transcript,
}: {
	title: string;
	id: string;
	items: string[];
	transcript: TranscriptEntry[];
}) {
	return (
		<section aria-labelledby={id}>
			<h2 id={id}>{title}</h2>
			<ul>
				{items.map((text) => (
					<li>
						{text}
						{cited(text, transcript).map((e) => (
							<Quote entry={e} />
						))}
					</li>
				))}
			</ul>
		</section>
	);
}

/** What each review flag asks a person to look at (docs/interviewer.md). */
const REVIEW_FLAG: Record<string, string> = {
	keyword_list: "An answer listed terms without explaining them",
	contradiction: "An answer contradicts itself",
	misconception: "An answer states a known misconception",
	off_topic: "An answer is off the question",
	low_evidence: "Too little was said to judge with confidence",
	paraphrase_uncertain: "An answer may be a correct paraphrase the rubric did not recognise",
	no_answer: "A question was not answered",
	scorer_fallback: "The model could not score an answer; the offline scorer did",
	signals_disagree: "The scores and the claims found point different ways",
	overclaim: "An answer makes sweeping claims without explaining how",
	unsupported: "An answer uses the vocabulary without explaining the expected causes and effects",
};

const RECOMMENDATION: Record<string, string> = { hire: "Hire", maybe: "Maybe", no_hire: "No hire" };

resultsPage.get("/:id/results", async (c) => {
	const me = c.var.dashboard;
	const read = await ownedWithRecordings(c, c.req.param("id"));
	const state: InterviewState | null = read?.state ?? null;
	if (state?.status !== "completed") return notFoundPage(c);
	const results = state.analyzedAt !== null ? state.results : null;
	const analytics = state.analyzedAt !== null ? state.analytics : null;
	// R2 is listed only when the interview's object counted a chunk (or predates the count).
	const recordings = read?.recordings
		? (await recordingLinks(c.env, state.id, appUrl(c as never), c.get("now"))).segments
		: [];
	const name = state.candidateName ?? state.candidateEmail;
	const sandbox = state.environment === "dev";
	return c.html(
		<Page
			title={`${sandbox ? "Dev sandbox results" : state.testMode ? "Test results" : "Results"}: ${name}`}
			user={me}
			current="/dashboard/interviews"
		>
			{sandbox ? (
				<DevBanner>
					A dev sandbox interview (made with a dev key): apart from the account's data, and deleted 7 days
					after it was made.
				</DevBanner>
			) : state.testMode ? (
				<TestBanner>
					Test interview: these are mock results made by the test helper, not an assessment of a real
					candidate.
				</TestBanner>
			) : null}
			<p class="no-print">
				<a href={`/dashboard/interviews/${state.id}`}>Back to the interview</a>{" "}
				<button type="button" data-print="1">
					Print / Save as PDF
				</button>
			</p>
			<h1>
				{sandbox ? (
					<>
						<DevBadge />{" "}
					</>
				) : state.testMode ? (
					<>
						<TestBadge />{" "}
					</>
				) : null}
				Interview results: {name}, {state.position}
			</h1>
			<p class="muted">
				{state.candidateEmail} · completed {fmt(state.completedAt)} · {state.durationMinutes}-minute interview
				{sandbox ? " · dev sandbox" : state.testMode ? " · test mode" : ""}
			</p>
			{results === null ? (
				<p role="status">The results are being analysed; reload in a few seconds.</p>
			) : (
				<>
					<section aria-labelledby="scores-h">
						<h2 id="scores-h">Scores</h2>
						<div class="cards">
							<div class="card">
								<div>Overall</div>
								<div class="big">
									{results.overall_score}
									<span class="muted"> / 100</span>
								</div>
							</div>
							<div class="card">
								<div>Technical</div>
								<div class="big">
									{results.technical_score}
									<span class="muted"> / 100</span>
								</div>
							</div>
							<div class="card">
								<div>Communication</div>
								<div class="big">
									{results.communication_score}
									<span class="muted"> / 100</span>
								</div>
							</div>
							<div class="card">
								<div>Recommendation</div>
								<div class="big" id="recommendation">
									{RECOMMENDATION[results.recommendation] ?? results.recommendation}
								</div>
							</div>
						</div>
					</section>
					<section aria-labelledby="review-h">
						<h2 id="review-h">Before you decide</h2>
						<p>
							The recommendation is the interviewer's advice, not a decision: a person reads the answers and
							decides.
						</p>
						<p>
							Confidence:{" "}
							<strong id="confidence">
								{typeof results.confidence === "number"
									? `${Math.round(results.confidence * 100)}%`
									: "not stated for these results"}
							</strong>
						</p>
						{(results.review_flags ?? []).length > 0 ? (
							<ul id="review-flags">
								{(results.review_flags ?? []).map((flag) => (
									<li>{REVIEW_FLAG[flag] ?? flag}</li>
								))}
							</ul>
						) : (
							<p id="review-flags">No review flags.</p>
						)}
					</section>
					<section aria-labelledby="skills-h">
						<h2 id="skills-h">Skills</h2>
						<SkillChart skills={results.skill_assessments} />
						<div class="table-wrap">
							<table>
								<caption class="muted" style="text-align:left">
									The chart's values
								</caption>
								<thead>
									<tr>
										<th scope="col">Skill</th>
										<th scope="col">Score</th>
										<th scope="col">Level</th>
									</tr>
								</thead>
								<tbody>
									{results.skill_assessments.map((s) => (
										<tr>
											<td>{s.skill}</td>
											<td>{s.score}</td>
											<td>{s.level}</td>
										</tr>
									))}
								</tbody>
							</table>
						</div>
					</section>
					<Findings
						title="Strengths"
						id="strengths-h"
						items={results.strengths}
						transcript={state.transcript}
					/>
					<Findings
						title="Areas for improvement"
						id="areas-h"
						items={results.areas_for_improvement}
						transcript={state.transcript}
					/>
				</>
			)}
			{analytics ? (
				<section aria-labelledby="analytics-h">
					<h2 id="analytics-h">Analytics</h2>
					<dl class="facts">
						<dt>Engagement</dt>
						<dd>{analytics.engagement_level}</dd>
						<dt>Average response time</dt>
						<dd>{analytics.response_times.average_seconds} s</dd>
						<dt>Fastest response</dt>
						<dd>{analytics.response_times.fastest_seconds} s</dd>
						<dt>Slowest response</dt>
						<dd>{analytics.response_times.slowest_seconds} s</dd>
					</dl>
					<h3>Difficulty progression</h3>
					<DifficultyChart steps={analytics.question_difficulty_progression} />
					<div class="table-wrap">
						<table>
							<thead>
								<tr>
									<th scope="col">Question</th>
									<th scope="col">Skill</th>
									<th scope="col">Difficulty</th>
									<th scope="col">Change</th>
									<th scope="col">Score</th>
								</tr>
							</thead>
							<tbody>
								{analytics.question_difficulty_progression.map((s) => (
									<tr>
										<td>{s.question_index + 1}</td>
										<td>{s.skill}</td>
										<td>{s.difficulty}</td>
										<td>{s.change}</td>
										<td>{s.score ?? "—"}</td>
									</tr>
								))}
							</tbody>
						</table>
					</div>
				</section>
			) : null}
			<section aria-labelledby="transcript-h">
				<h2 id="transcript-h">Transcript</h2>
				{state.transcript.length === 0 ? (
					<p>No questions were asked (a test-mode interview completed by the test helper has none).</p>
				) : null}
				<ol>
					{state.transcript.map((e) => (
						<li>
							<p>
								<strong>Question</strong> ({e.question.skill}, {e.question.difficulty}): {e.question.text}
							</p>
							<p>
								<strong>Answer</strong>
								{e.score !== null ? ` (score ${e.score})` : ""}: {e.answer ?? "no answer"}
							</p>
						</li>
					))}
				</ol>
			</section>
			<section aria-labelledby="recordings-h" class="no-print">
				<h2 id="recordings-h">Recordings</h2>
				{recordings.length === 0 ? (
					<p>No recordings were made.</p>
				) : (
					<>
						<p class="muted">
							One recording for each time the candidate's page recorded (a reload or a second device starts a
							new one). Links are valid until {fmt(Date.parse(recordings[0]?.expires_at ?? ""))}.
						</p>
						<ol>
							{recordings.map((r, i) => (
								<li>
									<p>
										Recording {i + 1}, started {fmt(Date.parse(r.started_at))} (
										{r.chunks === 1 ? "1 part" : `${r.chunks} parts`},{" "}
										{Math.max(1, Math.round(r.size_bytes / 1024))} KB)
									</p>
									{/* biome-ignore lint/a11y/useMediaCaption: no caption file exists; the transcript above is the interview's text */}
									<audio controls preload="none" src={r.url} aria-label={`Recording ${i + 1}`} />
									<p>
										<a href={r.url} download>
											Download recording {i + 1}
										</a>
									</p>
								</li>
							))}
						</ol>
					</>
				)}
			</section>
		</Page>,
	);
});
