// What `npm start` passes on of wrangler's output. Pure, so the unit suite can check it.

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** Removes ANSI colour and cursor codes. */
export function stripAnsi(text) {
	return text.replace(ANSI, "");
}

/**
 * A line filter for wrangler's output: its bindings table once (it prints it again when the
 * local server starts), none of its warning that scheduled Workers are not triggered locally
 * (`npm start` runs the cron's work itself, so it says that instead), and no colour codes when
 * the output is not a terminal.
 * @param {{color: boolean, cronNote: string}} options
 * @returns {(line: string) => string | null} the line to print, or null to drop it
 */
export function wranglerOutputFilter({ color, cronNote }) {
	let bindingsShown = false;
	let skippingBindings = false;
	let inCronWarning = false;
	return (raw) => {
		const plain = stripAnsi(raw);
		const line = color ? raw : plain;
		if (skippingBindings) {
			if (plain.trim() === "") skippingBindings = false;
			return null;
		}
		if (inCronWarning) {
			if (/cron-triggers/.test(plain)) inCronWarning = false;
			return null;
		}
		if (/Scheduled Workers are not automatically triggered/.test(plain)) {
			inCronWarning = true;
			return cronNote;
		}
		if (/Your Worker has access to the following bindings/.test(plain)) {
			skippingBindings = bindingsShown;
			bindingsShown = true;
			return skippingBindings ? null : line;
		}
		return line;
	};
}
