import type { StoryPart } from "../types";
import { c } from "./types";

/** A concept that is a part of a story (see Concept.story). */
function part(story: StoryPart, name: string, ...keywords: string[]) {
	return { ...c(name, ...keywords), story };
}

/** Concepts shared by several question sets: the parts of a well-told story, examples, trade-offs, feedback. */
export const situation = part(
	"setting",
	"situation and context",
	"project",
	"team",
	"situation",
	"at my",
	"when i",
	"we were",
	"context",
	"company",
);
export const ownAction = part(
	"actions",
	"own actions",
	"i decided",
	"i proposed",
	"i took",
	"i worked",
	"i talked",
	"i suggested",
	"i organized",
	"i organised",
	"i led",
	"i made sure",
	"i wrote",
	"i built",
	"my role",
);
export const result = part(
	"outcome",
	"measurable result",
	"result",
	"outcome",
	"as a result",
	"delivered",
	"reduced",
	"improved",
	"increased",
	"%",
	"percent",
);
export const learning = part(
	"reflection",
	"reflection and learning",
	"learned",
	"learnt",
	"lesson",
	"next time",
	"in hindsight",
	"would do differently",
	"takeaway",
);
export const example = c(
	"concrete example",
	"for example",
	"for instance",
	"e.g.",
	"in my last",
	"we used",
	"i used",
	"in production",
	"on a project",
);
export const tradeOffs = c(
	"trade-offs",
	"trade-off",
	"downside",
	"drawback",
	"limitation",
	"cost",
	"on the other hand",
);
export const feedback = c("feedback", "feedback", "asked for", "review", "listened", "check in", "check-in");
