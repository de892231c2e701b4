import { c } from "./types";

/** Concepts shared by several question sets: the parts of a well-told story, examples, trade-offs, feedback. */
export const situation = c(
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
export const ownAction = c(
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
export const result = c(
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
export const learning = c(
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
