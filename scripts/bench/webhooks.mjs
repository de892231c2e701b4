// Webhook fan-out: a receiver on 127.0.0.1 (checks every signature with node:crypto), several
// endpoints of one account subscribed to interview.scheduled, and a burst of events from bulk
// creation. Measures deliveries per second at the receiver, from the first to the last arrival.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";
import { percentile } from "./report.mjs";

function signatureValid(secret, body, header) {
	if (typeof header !== "string") return false;
	const expected = Buffer.from(`sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`);
	const given = Buffer.from(header);
	return expected.length === given.length && timingSafeEqual(expected, given);
}

export async function startReceiver(secret) {
	const arrivals = [];
	const seen = new Set();
	let invalid = 0;
	let duplicates = 0;
	const server = createServer((req, res) => {
		const chunks = [];
		req.on("data", (c) => chunks.push(c));
		req.on("end", () => {
			const body = Buffer.concat(chunks).toString("utf8");
			const id = req.headers["x-service-delivery"];
			if (!signatureValid(secret, body, req.headers["x-service-signature"])) invalid++;
			else if (seen.has(id)) duplicates++;
			else {
				seen.add(id);
				arrivals.push(performance.now());
			}
			res.writeHead(200, { "Content-Type": "application/json" });
			res.end('{"ok":true}');
		});
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	return {
		port: server.address().port,
		stats: () => ({ arrivals, invalid, duplicates }),
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/**
 * @param {{register: (url: string) => Promise<void>, generate: () => Promise<number>,
 *   secret: string, endpoints: number, timeLimitMs: number}} options
 *   `generate` creates the events and returns how many it created.
 */
export async function measureFanOut({ register, generate, secret, endpoints, timeLimitMs }) {
	const receiver = await startReceiver(secret);
	try {
		for (let i = 0; i < endpoints; i++) await register(`http://127.0.0.1:${receiver.port}/hook/${i}`);
		const startedAt = performance.now();
		let errors = 0;
		let events = 0;
		try {
			events = await generate();
		} catch (error) {
			errors++;
			console.error(String(error));
		}
		const expected = events * endpoints;
		const deadline = Date.now() + timeLimitMs;
		while (receiver.stats().arrivals.length < expected && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		const { arrivals, invalid, duplicates } = receiver.stats();
		const first = arrivals[0] ?? startedAt;
		const last = arrivals.at(-1) ?? startedAt;
		const spanS = (last - first) / 1000;
		const latencies = arrivals.map((t) => t - startedAt);
		return {
			endpoints,
			events,
			expected,
			delivered: arrivals.length,
			missing: Math.max(0, expected - arrivals.length),
			invalid,
			duplicates,
			errors,
			spanS,
			perSecond: spanS > 0 ? (arrivals.length - 1) / spanS : null,
			p50: percentile(latencies, 50),
			p99: percentile(latencies, 99),
		};
	} finally {
		await receiver.close();
	}
}
