// The typed client: openapi-fetch over the types openapi-typescript generated from the service's
// OpenAPI document (client/schema.d.ts; `npm run build:openapi` writes it, `npm run typecheck`
// fails when it is stale). Paths, parameters, bodies and answers are checked by the compiler.
//
//   const api = createServiceClient({ baseUrl: "http://localhost:8787", apiKey: "svc_test_…" });
//   const { data, error } = await api.POST("/v1/interviews", {
//     body: { candidate_email: "ada@example.com", position: "Backend Engineer", skills: ["Go"] },
//     headers: { "Idempotency-Key": crypto.randomUUID() },
//   });
import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./schema.js";

export type { components, operations, paths, webhooks } from "./schema.js";

export type ServiceClient = Client<paths>;

export interface ServiceClientOptions extends Omit<ClientOptions, "baseUrl"> {
	/** The service's origin, e.g. `https://interviews.example.com` (no path). */
	baseUrl: string;
	/** An API key: `svc_live_…`, `svc_test_…` or `svc_dev_…`. */
	apiKey: string;
}

export function createServiceClient({
	baseUrl,
	apiKey,
	headers,
	...options
}: ServiceClientOptions): ServiceClient {
	return createClient<paths>({
		...options,
		baseUrl,
		headers: { ...(headers as Record<string, string> | undefined), Authorization: `Bearer ${apiKey}` },
	});
}
