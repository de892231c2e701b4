// Vitest globalSetup (runs in Node): one local OpenAI-compatible server for the workers suite;
// tests find it through `inject("openaiServer")`.
import type { TestProject } from "vitest/node";
import { startOpenAiServer } from "../support/openai-server";

export default async function setup(project: TestProject) {
	const server = await startOpenAiServer();
	project.provide("openaiServer", { port: server.port });
	return () => server.close();
}

declare module "vitest" {
	export interface ProvidedContext {
		openaiServer: { port: number };
	}
}
