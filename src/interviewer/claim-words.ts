/** The words and phrases the claim analysis (claims.ts) reads answers by. */

/**
 * Words that join a cause to its effect. A purpose ("use X to do Y") and "by" with what it names
 * after it join them too (claims.ts, `hasCausal`).
 */
export const CAUSAL = [
	"because",
	"since",
	"so",
	"so that",
	"therefore",
	"thus",
	"hence",
	"which means",
	"this means",
	"that means",
	"means",
	"meaning",
	"cause",
	"lead to",
	"result in",
	"as a result",
	"due to",
	"make",
	"allow",
	"let",
	"enable",
	"prevent",
	"avoid",
	"ensure",
	"guarantee",
	"require",
	"need",
	"cost",
	"force",
	"block",
	"until",
	"when",
	"if",
	"unless",
	"otherwise",
	"instead",
	"trade",
	"at the cost of",
	"in exchange",
	"which",
	"why",
	"reduce",
	"increase",
	"speed up",
	"slow",
] as const;

/** A clause ends at a contrast: a claim on one side is not the claim of the other. */
export const CONTRAST = new Set([
	"but",
	"however",
	"whereas",
	"while",
	"although",
	"though",
	"yet",
	"unlike",
	"except",
]);

/** Sentences that report a claim as someone else's mistake do not assert it. */
export const REPORTED = [
	"myth",
	"misconception",
	"mistake",
	"misunderstanding",
	"wrong",
	"false",
	"incorrect",
	"untrue",
	"people think",
	"people assume",
	"people believe",
	"some think",
	"some believe",
	"contrary to",
	"it is a trap",
	"pitfall",
	"worse when",
	"anti pattern",
	"antipattern",
	"bad idea",
] as const;

export const IGNORANCE_PHRASES = [
	"i don't know",
	"i do not know",
	"dont know",
	"no idea",
	"not sure",
	"never used",
	"not familiar",
	"no experience",
	"never worked with",
	"never heard",
	"can't remember",
	"cannot remember",
	"don't remember",
] as const;

/**
 * Opposite directions of an effect, by root (claims.ts): an expected link whose effect names one
 * side ("slow & write") is stated inverted when the answer puts the other side there ("writes
 * get faster") or denies it ("indexes do not slow writes"). Each entry reads both ways.
 */
export const ANTONYMS: ReadonlyArray<readonly [readonly string[], readonly string[]]> = [
	[
		["slow", "slower", "slowdown", "expensive", "costly"],
		["fast", "faster", "quick", "quicker", "cheap", "cheaper", "free", "speed up", "no cost"],
	],
	[
		["more", "increase", "grow", "higher"],
		["less", "fewer", "decrease", "reduce", "shrink", "lower"],
	],
	[
		["before", "first", "earlier"],
		["after", "last", "later"],
	],
	[["always"], ["never"]],
	[
		["sorted", "ordered", "in order"],
		["unsorted", "unordered", "random"],
	],
	[["stateful"], ["stateless"]],
	[
		["block", "stall", "freeze", "wait"],
		["never block", "run in parallel", "parallel"],
	],
	[
		["same", "shared", "share"],
		["separate", "own", "different", "copy", "copied"],
	],
	[
		["prevent", "stop", "forbid", "disallow"],
		["allow", "permit"],
	],
	[
		["safe", "safer"],
		["unsafe", "risky", "dangerous"],
	],
	[
		["immutable", "read only", "cannot change"],
		["mutable", "modify", "change"],
	],
	[
		["lazily", "lazy", "on demand", "one at a time"],
		["eagerly", "all at once", "whole list"],
	],
	[
		["unique", "no duplicate"],
		["duplicate", "duplicates"],
	],
];

/**
 * Words that mean the same for matching a rubric phrase (language.ts): a rubric word that is one
 * of them also matches the others, by root. Kept small and unambiguous inside the domain.
 */
export const SYNONYMS: ReadonlyArray<readonly string[]> = [
	["fast", "quick", "speedy", "rapid"],
	["slow", "sluggish"],
	["find", "locate", "look up", "lookup", "search"],
	["store", "save", "persist"],
	["remove", "delete", "drop", "detach", "clear"],
	["change", "modify", "alter", "mutate", "update"],
	["error", "failure", "fault"],
	["fail", "break", "crash"],
	["user", "customer", "visitor"],
	["server", "backend"],
	["split", "divide", "partition", "spread", "distribute"],
	["check", "verify", "validate", "confirm"],
	["retry", "try again", "reattempt", "resend"],
	["expensive", "costly"],
	["cheap", "inexpensive"],
	["big", "large", "huge"],
	["small", "tiny", "little"],
	["start", "begin", "launch"],
	["stop", "halt", "cancel"],
	["wait", "pause"],
	["goal", "objective", "aim"],
	["measure", "profile"],
	["priority", "prioritise", "prioritize", "rank"],
	["responsibility", "ownership"],
];

/**
 * Sweeping words: a confident wrong answer leans on them ("always", "never", "no cost"); several
 * in the sentences about the subject, with few expected links made, mark an overclaim.
 */
export const ABSOLUTES = [
	"always",
	"never",
	"everything",
	"all at once",
	"no cost",
	"no downside",
	"free",
	"guarantee",
	"impossible",
	"can never",
	"no need",
	"not necessary",
	"forever",
	"completely",
	"entirely",
	"just",
	"simply",
	"the best",
	"the fastest",
	"the safest",
	"the right choice",
	"all you need",
	"perfectly",
	"cosmetic",
	"useless",
	"not worth",
	"worst",
] as const;
