import { dsa } from "./algorithms";
import { CLAIMS } from "./claims";
import { aws, docker, kubernetes } from "./cloud";
import { postgresql, sql } from "./databases";
import { cicd } from "./delivery";
import { apiDesign, systemDesign } from "./engineering";
import { nodejs, react } from "./frameworks-js";
import { django, spring } from "./frameworks-server";
import { javascript, python, typescript } from "./languages-dynamic";
import { csharp, java } from "./languages-jvm";
import { go, rust } from "./languages-systems";
import { leadership, teamwork } from "./leadership";
import { LINKS } from "./links";
import { MORE_MISCONCEPTIONS } from "./misconceptions";
import { mongodb, redis } from "./nosql";
import { behavioural, communication } from "./people";
import { PLAIN_WORDS } from "./plain-words";
import { security, testing } from "./quality";
import type { SkillBank } from "./types";

export { GENERIC_TEMPLATE_COUNT, genericQuestions } from "./generic";
export type { BankQuestion, SkillBank } from "./types";

/** Every skill the bank knows, each with questions at all four difficulty levels. */
const SKILL_BANKS: readonly SkillBank[] = [
	javascript,
	typescript,
	python,
	java,
	go,
	rust,
	csharp,
	react,
	nodejs,
	django,
	spring,
	sql,
	postgresql,
	mongodb,
	redis,
	aws,
	docker,
	kubernetes,
	cicd,
	systemDesign,
	testing,
	security,
	dsa,
	apiDesign,
	behavioural,
	communication,
	leadership,
	teamwork,
];

/** The banks with each question's claim rubric (bank/claims.ts) attached. */
export const BANKS: readonly SkillBank[] = SKILL_BANKS.map((bank) => ({
	...bank,
	questions: bank.questions.map((q) => {
		const claims = CLAIMS[q.id];
		const links = [...(claims?.links ?? []), ...(LINKS[q.id] ?? [])];
		const plain = PLAIN_WORDS[q.id] ?? {};
		const concepts = q.concepts.map((c) => ({ ...c, keywords: [...c.keywords, ...(plain[c.name] ?? [])] }));
		const misconceptions = [...(claims?.misconceptions ?? []), ...(MORE_MISCONCEPTIONS[q.id] ?? [])];
		return {
			...q,
			concepts,
			...claims,
			...(misconceptions.length > 0 ? { misconceptions } : {}),
			...(links.length > 0 ? { links } : {}),
		};
	}),
}));

export function bankByKey(key: string): SkillBank | null {
	return BANKS.find((b) => b.key === key) ?? null;
}
