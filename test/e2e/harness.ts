// The real local service (`npm start`'s script) on free ports with its own state folder, so every
// end-to-end file begins from a blank state; the starter is shared with the benchmark.

import { type Browser, chromium } from "playwright-core";
import { createServiceClient, type ServiceClient } from "../../client";
import { freePort, type LocalService, startService } from "../../scripts/local-service.mjs";
import { createValidator, type OpenApiValidator } from "./openapi-validator";

export type Service = LocalService;
export { freePort, startService };

export async function api<T = any>(
	service: Service,
	method: string,
	path: string,
	options: { key?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any & T }> {
	const headers: Record<string, string> = { ...options.headers };
	if (options.key) headers.Authorization = `Bearer ${options.key}`;
	if (options.body !== undefined) headers["Content-Type"] = "application/json";
	const response = await fetch(`${service.baseUrl}${path}`, {
		method,
		headers,
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
		signal: AbortSignal.timeout(30_000),
	});
	const result = { status: response.status, headers: response.headers, body: await response.json() };
	await checkAgainstDocument(service, method, path, result);
	return result;
}

const validators = new Map<string, Promise<OpenApiValidator>>();

/** The validator of the document `service` serves at /openapi.json, fetched once per service. */
export function openApiValidator(service: Service): Promise<OpenApiValidator> {
	let validator = validators.get(service.baseUrl);
	if (!validator) {
		validator = fetch(`${service.baseUrl}/openapi.json`, { signal: AbortSignal.timeout(30_000) })
			.then((r) => r.json())
			.then((document) => createValidator(document as Record<string, unknown>));
		validators.set(service.baseUrl, validator);
	}
	return validator;
}

/**
 * Every answer of the public API and the admin API is checked against the OpenAPI document: a
 * body, status or header the document does not describe fails the test that received it.
 */
export async function checkAgainstDocument(
	service: Service,
	method: string,
	path: string,
	response: { status: number; headers: Headers; body: unknown },
): Promise<void> {
	if (!/^\/((api\/)?v1|admin)(\/|\?|$)/.test(path)) return;
	const validator = await openApiValidator(service);
	const problems = validator.check(method, path, response.status, response.headers, response.body);
	if (problems.length > 0) {
		throw new Error(`The answer does not match the OpenAPI document:\n${problems.join("\n")}`);
	}
}

/**
 * The generated typed client (client/index.ts) for `key`, with every answer checked against the
 * OpenAPI document exactly as `api()` checks its answers.
 */
export function client(service: Service, key: string): ServiceClient {
	const typed = createServiceClient({ baseUrl: service.baseUrl, apiKey: key });
	typed.use({
		async onResponse({ request, response }) {
			const url = new URL(request.url);
			const body = await response.clone().json();
			await checkAgainstDocument(service, request.method, `${url.pathname}${url.search}`, {
				status: response.status,
				headers: response.headers,
				body,
			});
			return undefined;
		},
	});
	return typed;
}

/**
 * Debian's Chromium, headless, for the pages' tests. Besides the usual flags it resolves no name
 * but `localhost`: Chromium asks Google's servers for autofill, sign-in and component updates
 * even with `--disable-background-networking`, and the tests talk to 127.0.0.1 only.
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
	return chromium.launch({
		executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
		args: [
			"--headless",
			"--no-sandbox",
			"--disable-gpu",
			"--disable-background-networking",
			"--disable-component-update",
			"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
			...extraArgs,
		],
	});
}
