import { ALL_EVENTS, WEBHOOK_EVENT_NAMES } from "../webhooks/event-names";
import { type describe, fieldAll, type formOf } from "./guard";
import { invalidProps } from "./layout";

export const HOOKS = "/dashboard/settings/webhooks";

export type Problem = ReturnType<typeof describe> | null;

/** An endpoint form's fields by the id of each one's input (the events' first checkbox). */
export function endpointInputs(urlId: string): { url: string; events: string } {
	return { url: urlId, events: "ev-all" };
}

export function EventChoices({ chosen, error }: { chosen: readonly string[]; error?: Problem }) {
	const invalid = invalidProps(error, "events");
	return (
		<fieldset>
			<legend>Events</legend>
			<span class="check">
				<input
					type="checkbox"
					id="ev-all"
					name="events"
					{...invalid}
					value={ALL_EVENTS}
					checked={chosen.includes(ALL_EVENTS)}
				/>{" "}
				<label for="ev-all">Every event</label>
			</span>
			{WEBHOOK_EVENT_NAMES.map((name) => (
				<span class="check">
					<input
						type="checkbox"
						id={`ev-${name}`}
						name="events"
						{...invalid}
						value={name}
						checked={chosen.includes(name)}
					/>{" "}
					<label for={`ev-${name}`}>
						<code>{name}</code>
					</label>
				</span>
			))}
		</fieldset>
	);
}

/** The events field of a form: the checked names, or an empty list the schema refuses. */
export function eventsOf(form: Awaited<ReturnType<typeof formOf>>): string[] {
	return fieldAll(form, "events");
}
