// The control API of the test receiver (test/support/webhook-receiver.ts), from inside workerd.
import { inject } from "vitest";
import type { RecordedRequest, RouteConfig } from "./webhook-receiver";

export type { RecordedRequest };

export function receiver() {
	const { port, trapPort } = inject("webhookReceiver");
	const base = `http://127.0.0.1:${port}`;
	return {
		port,
		trapPort,
		/** A fresh route (its own path and answers), so tests never see each other's requests. */
		async route(name: string, config: RouteConfig = {}) {
			const res = await fetch(`${base}/__control/routes/${name}`, {
				method: "PUT",
				body: JSON.stringify(config),
			});
			if (!res.ok) throw new Error(`receiver control failed: ${res.status}`);
			return `${base}/hook/${name}`;
		},
		async requests(name: string): Promise<RecordedRequest[]> {
			return (await (await fetch(`${base}/__control/requests/${name}`)).json()) as RecordedRequest[];
		},
		async trapped(): Promise<{ path: string }[]> {
			return (await (await fetch(`${base}/__control/trap`)).json()) as { path: string }[];
		},
	};
}
