/**
 * The live view of an in-progress interview: the dashboard's script (script.ts, `LIVE`) asks for a
 * short-lived observer ticket (signed-in user, this interview only) with the page's form token,
 * opens the observer WebSocket with it, asks for the room's history (`resync` from 0) and shows
 * what the channel reports: the interview's status, its progress and end, and every question asked
 * so far, in order, as it is asked. The candidate's answers are not on the channel; they are in
 * the transcript once the interview ends. Without JavaScript the section says to reload.
 */
export function LiveView({ id, csrf }: { id: string; csrf: string }) {
	return (
		<section
			id="live"
			aria-labelledby="live-h"
			data-ticket={`/dashboard/interviews/${id}/live-ticket`}
			data-csrf={csrf}
		>
			<h2 id="live-h">Live view</h2>
			<p id="live-state" role="status">
				Connecting…
			</p>
			<dl id="live-facts" class="facts" hidden>
				<dt>Live status</dt>
				<dd id="live-status" />
				<dt>Questions answered</dt>
				<dd id="live-answered" />
				<dt>Ends</dt>
				<dd id="live-ends" />
			</dl>
			<h3>Questions asked</h3>
			<ol id="live-log" aria-live="polite" />
			<noscript>Reload the page to see the interview's progress.</noscript>
		</section>
	);
}
