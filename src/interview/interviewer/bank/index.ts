import { dsa } from "./algorithms";
import { aws, cicd, docker, kubernetes } from "./cloud";
import { postgresql, sql } from "./databases";
import { apiDesign, systemDesign } from "./engineering";
import { django, nodejs, react, spring } from "./frameworks";
import { csharp, go, java, rust } from "./languages-compiled";
import { javascript, python, typescript } from "./languages-dynamic";
import { leadership, teamwork } from "./leadership";
import { mongodb, redis } from "./nosql";
import { behavioural, communication } from "./people";
import { security, testing } from "./quality";
import type { SkillBank } from "./types";

export { GENERIC_TEMPLATE_COUNT, genericQuestions } from "./generic";
export type { BankQuestion, SkillBank } from "./types";

/** Every skill the bank knows, each with questions at all four difficulty levels. */
export const BANKS: readonly SkillBank[] = [
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

export function bankByKey(key: string): SkillBank | null {
	return BANKS.find((b) => b.key === key) ?? null;
}
