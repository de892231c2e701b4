import { iso, isoOrNull } from "../../../platform/lib/time";
import {
	bump,
	type Effect,
	event,
	fail,
	isLive,
	NO_SHOW_AFTER_MS,
	type Transition,
	UPDATABLE_FIELDS,
	type UpdatableField,
	type UpdateChanges,
	type UpdateCommand,
	unchanged,
} from "../commands";
import type { InterviewState, Json } from "../model";

/** While in progress only these may change, and `instructions` only by extension. */
export const IN_PROGRESS_UPDATES = ["company_name", "instructions"] as const;

function currentValue(state: InterviewState, field: UpdatableField): Json {
	switch (field) {
		case "scheduled_at":
			return iso(state.scheduledAt);
		case "candidate_email":
			return state.candidateEmail;
		case "position":
			return state.position;
		case "skills":
			return state.skills;
		case "duration_minutes":
			return state.durationMinutes;
		case "difficulty":
			return state.difficulty;
		case "instructions":
			return state.instructions;
		case "company_name":
			return state.companyName;
	}
}

function newValue(changes: UpdateChanges, field: UpdatableField): Json {
	const value = changes[field];
	if (value === undefined) return null;
	return field === "scheduled_at" ? iso(value as number) : (value as Json);
}

/**
 * PATCH rules by status (interface.md): everything while scheduled; only `company_name` and an
 * extension of `instructions` while in progress; nothing once completed or cancelled.
 */
export function update(state: InterviewState, cmd: UpdateCommand, now: number): Transition {
	const requested = UPDATABLE_FIELDS.filter((f) => cmd.changes[f] !== undefined);
	if (state.status === "completed") {
		return fail({
			code: "INVALID_OPERATION",
			status: state.status,
			details: {
				current_status: "completed",
				completed_at: isoOrNull(state.completedAt),
				allowed_updates: [],
			},
		});
	}
	if (state.status === "cancelled") {
		return fail({
			code: "INVALID_OPERATION",
			status: state.status,
			details: {
				current_status: "cancelled",
				cancelled_at: isoOrNull(state.cancelledAt),
				allowed_updates: [],
			},
		});
	}
	if (state.status === "in_progress") {
		const rejected = requested.filter((f) => !(IN_PROGRESS_UPDATES as readonly string[]).includes(f));
		const details = {
			current_status: "in_progress",
			started_at: isoOrNull(state.startedAt),
			allowed_updates: [...IN_PROGRESS_UPDATES],
		};
		if (rejected.length > 0) {
			return fail({
				code: "INTERVIEW_IN_PROGRESS",
				message: `The interview is in progress; ${rejected.join(", ")} can no longer change.`,
				details: { ...details, rejected_fields: rejected },
			});
		}
		const instructions = cmd.changes.instructions;
		if (instructions !== undefined && !instructions.startsWith(state.instructions ?? "")) {
			return fail({
				code: "INTERVIEW_IN_PROGRESS",
				message:
					"While the interview is in progress, instructions can only be extended: the new value must begin with the current instructions.",
				details: { ...details, rejected_fields: ["instructions"] },
			});
		}
	}
	if (cmd.changes.scheduled_at !== undefined && cmd.changes.scheduled_at < now) {
		return fail({ code: "VALIDATION_ERROR", fields: { scheduled_at: "Must not be in the past" } });
	}

	const changed = requested.filter(
		(f) => JSON.stringify(currentValue(state, f)) !== JSON.stringify(newValue(cmd.changes, f)),
	);
	if (changed.length === 0) return unchanged(state);

	const c = cmd.changes;
	const rescheduled = changed.includes("scheduled_at");
	const emailChanged = changed.includes("candidate_email");
	// A candidate who joined and waits for a slot was the old address's: the new one joins anew.
	const joinUndone = emailChanged && state.joinedAt !== null;
	const next = bump(state, now, {
		scheduledAt: c.scheduled_at ?? state.scheduledAt,
		candidateEmail: c.candidate_email ?? state.candidateEmail,
		position: c.position ?? state.position,
		skills: c.skills ?? state.skills,
		durationMinutes: c.duration_minutes ?? state.durationMinutes,
		difficulty: c.difficulty ?? state.difficulty,
		instructions: c.instructions ?? state.instructions,
		companyName: c.company_name ?? state.companyName,
		// A new address gets a new link: the old recipient can no longer join.
		joinToken: emailChanged ? cmd.newJoinToken : state.joinToken,
		// The name given at creation was the old address's: never shown to, or sent as, the new one.
		candidateName: emailChanged ? null : state.candidateName,
		joinedAt: joinUndone ? null : state.joinedAt,
		noShowEmitted: rescheduled ? false : state.noShowEmitted,
		...(emailChanged ? { addressChanges: (state.addressChanges ?? 0) + 1 } : {}),
	});

	const changes: { [key: string]: Json } = {};
	for (const f of changed) changes[f] = { previous: currentValue(state, f), current: currentValue(next, f) };
	const effects: Effect[] = [
		event("interview.updated", {
			id: state.id,
			updated_fields: changed,
			changes,
			updated_at: iso(now),
			test_mode: state.testMode,
		}),
	];
	if (rescheduled) {
		effects.push(
			event("interview.rescheduled", {
				id: state.id,
				previous_scheduled_at: iso(state.scheduledAt),
				scheduled_at: iso(next.scheduledAt),
				reason: cmd.rescheduleReason,
				test_mode: state.testMode,
			}),
			{ kind: "timer", name: "no_show", dueAt: next.scheduledAt + NO_SHOW_AFTER_MS },
		);
	}
	// The join had stopped the no-show timer; it runs again for the new candidate if still ahead.
	const noShowAt = next.scheduledAt + NO_SHOW_AFTER_MS;
	if (joinUndone && !rescheduled && !next.noShowEmitted && noShowAt > now) {
		effects.push({ kind: "timer", name: "no_show", dueAt: noShowAt });
	}
	// The old address's place in the account's waiting line goes with its join: the new candidate
	// takes a place when joining, at the back.
	if (joinUndone && isLive(state)) effects.push({ kind: "release_slot" });
	if (state.status === "scheduled" && cmd.sendNotification && !state.testMode) {
		if (emailChanged) {
			// The old address's link no longer works: its calendar entry is withdrawn (with the reason
			// given), and the new address is invited with the new link (it never had an invitation to
			// update) under a calendar entry of its own.
			effects.push(
				{
					kind: "notify",
					template: "cancellation",
					reason: cmd.rescheduleReason,
					replaced: state,
				},
				{ kind: "notify", template: "invitation", reason: null },
			);
		} else {
			effects.push({ kind: "notify", template: "update", reason: cmd.rescheduleReason });
		}
	}
	return { ok: true, state: next, effects };
}
