// Vitest globalSetup (runs in Node): one webhook receiver for the whole workers suite; tests
// find it through `inject("webhookReceiver")`.
import type { TestProject } from "vitest/node";
import { startWebhookReceiver } from "../support/webhook-receiver";

export default async function setup(project: TestProject) {
	const receiver = await startWebhookReceiver();
	project.provide("webhookReceiver", { port: receiver.port, trapPort: receiver.trapPort });
	return () => receiver.close();
}

declare module "vitest" {
	export interface ProvidedContext {
		webhookReceiver: { port: number; trapPort: number };
	}
}
