#!/usr/bin/env node
// `npm run admin -- <command>`: the admin API from the command line.
// The service must be running (npm start); ADMIN_TOKEN comes from the environment or .dev.vars.
import { parseArgs } from "node:util";
import { adminRequest } from "./lib.mjs";

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  create-account --company NAME --plan free|starter|professional|enterprise [--credits N]
  list-accounts [--limit N] [--cursor C]
  get-account --account ACC_ID
  update-account --account ACC_ID [--plan P] [--company NAME] [--credits-delta N]
                 [--rpm N] [--concurrent N] [--monthly N]
  create-key --account ACC_ID --env live|test|dev [--name NAME] [--permissions a,b] [--expires-at ISO]
  revoke-key --account ACC_ID --key KEY_ID

Options: --url URL (default http://localhost:$PORT or 8787), --json (raw JSON output)`;

const [command, ...rest] = process.argv.slice(2);
const { values: o } = parseArgs({
	args: rest,
	options: {
		company: { type: "string" },
		plan: { type: "string" },
		credits: { type: "string" },
		"credits-delta": { type: "string" },
		account: { type: "string" },
		env: { type: "string" },
		name: { type: "string" },
		permissions: { type: "string" },
		"expires-at": { type: "string" },
		key: { type: "string" },
		limit: { type: "string" },
		cursor: { type: "string" },
		rpm: { type: "string" },
		concurrent: { type: "string" },
		monthly: { type: "string" },
		url: { type: "string" },
		json: { type: "boolean" },
	},
});

const options = o.url ? { baseUrl: o.url.replace(/\/+$/, "") } : {};
const int = (value) => (value === undefined ? undefined : Number.parseInt(value, 10));
function need(name) {
	if (o[name] === undefined) {
		console.error(`--${name} is required for ${command}\n\n${usage}`);
		process.exit(2);
	}
	return o[name];
}

async function run() {
	switch (command) {
		case "create-account":
			return adminRequest(
				"POST",
				"/accounts",
				{
					company_name: need("company"),
					plan: need("plan"),
					...(o.credits ? { credits: int(o.credits) } : {}),
				},
				options,
			);
		case "list-accounts": {
			const params = new URLSearchParams();
			if (o.limit) params.set("limit", o.limit);
			if (o.cursor) params.set("cursor", o.cursor);
			return adminRequest("GET", `/accounts${params.size ? `?${params}` : ""}`, undefined, options);
		}
		case "get-account":
			return adminRequest("GET", `/accounts/${need("account")}`, undefined, options);
		case "update-account": {
			const limits = {};
			if (o.rpm) limits.requests_per_minute = int(o.rpm);
			if (o.concurrent) limits.concurrent_interviews = int(o.concurrent);
			if (o.monthly) limits.monthly_interviews = int(o.monthly);
			return adminRequest(
				"PATCH",
				`/accounts/${need("account")}`,
				{
					...(o.plan ? { plan: o.plan } : {}),
					...(o.company ? { company_name: o.company } : {}),
					...(o["credits-delta"] ? { credits_delta: int(o["credits-delta"]) } : {}),
					...(Object.keys(limits).length ? { limits } : {}),
				},
				options,
			);
		}
		case "create-key":
			return adminRequest(
				"POST",
				`/accounts/${need("account")}/keys`,
				{
					name: o.name ?? `${need("env")} key`,
					environment: need("env"),
					...(o.permissions ? { permissions: o.permissions.split(",").map((s) => s.trim()) } : {}),
					...(o["expires-at"] ? { expires_at: o["expires-at"] } : {}),
				},
				options,
			);
		case "revoke-key":
			return adminRequest("DELETE", `/accounts/${need("account")}/keys/${need("key")}`, undefined, options);
		default:
			console.error(usage);
			process.exit(command ? 2 : 0);
	}
}

try {
	const data = await run();
	console.log(JSON.stringify(data, null, 2));
} catch (error) {
	console.error(error.message);
	process.exit(1);
}
