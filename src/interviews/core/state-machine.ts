import { type Command, fail, type Transition } from "./commands";
import type { InterviewState } from "./model";
import { cancel } from "./transitions/cancel";
import { create } from "./transitions/create";
import { analysisDone, answer, ask, finish, join, noShow, start } from "./transitions/live";
import { update } from "./transitions/update";

export * from "./commands";
export { isRepeatedAnswer } from "./transitions/live";

/**
 * The interview's state machine: `(state, command, now) -> {state, effects} | error`. Pure, so
 * every rule of the contract's tables is a plain unit test.
 */
export function transition(state: InterviewState | null, command: Command, now: number): Transition {
	if (command.type === "create") return create(state, command, now);
	if (!state) return fail({ code: "NOT_FOUND" });
	switch (command.type) {
		case "update":
			return update(state, command, now);
		case "cancel":
			return cancel(state, command, now);
		case "join":
			return join(state, now, command.early === true);
		case "start":
			return start(state, now);
		case "ask":
			return ask(state, command, now);
		case "answer":
			return answer(state, command, now);
		case "finish":
			return finish(state, command, now);
		case "no_show_timer":
			return noShow(state, now, command.early === true);
		case "analysis_timer":
			return analysisDone(state, now);
	}
}
