#!/usr/bin/env node
// `npm run admin -- <command>`: the admin API from the command line.
// The service must be running (npm start); ADMIN_TOKEN comes from the environment or .dev.vars.
import { parseArgs } from "node:util";
import { adminRequest, adminRequestEnvelope } from "./lib.mjs";

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  create-account --company NAME --plan free|starter|professional|enterprise [--credits N]
  list-accounts [--limit N] [--cursor C]
  get-account --account ACC_ID
  update-account --account ACC_ID [--plan P] [--company NAME] [--credits-delta N]
                 [--rpm N|null] [--concurrent N|null] [--monthly N|null]
  create-key --account ACC_ID --env live|test|dev [--name NAME] [--permissions a,b] [--expires-at ISO]
  revoke-key --account ACC_ID --key KEY_ID
  create-user --account ACC_ID --email EMAIL --role owner|member [--invite]
                                   (prints a one-time password; with --invite an invitation_url, also e-mailed)
  list-users --account ACC_ID
  delete-user --account ACC_ID --user USR_ID

Numbers are whole numbers; --credits-delta may be negative (--credits-delta -5).
--rpm, --concurrent and --monthly override the plan's limit; null clears the override (--rpm null).
Options: --url URL (default: $SERVICE_URL, else http://localhost:$PORT, else http://localhost:8787).
Output is the JSON of the API's \`data\`; list-accounts prints {"data", "pagination"}: pass
pagination.next_cursor as --cursor for the next page (null on the last page).`;

/** Refuses the command line with a message and the usage (exit code 2). */
function refuse(message) {
	console.error(`${message}\n\n${usage}`);
	process.exit(2);
}

const NUMERIC = new Set(["credits", "credits-delta", "limit", "rpm", "concurrent", "monthly"]);
const [command, ...given] = process.argv.slice(2);
// A negative number after a numeric option is its value, not another option.
const rest = [];
for (let i = 0; i < given.length; i++) {
	const arg = given[i];
	const next = given[i + 1];
	if (arg.startsWith("--") && NUMERIC.has(arg.slice(2)) && next !== undefined && /^-\d/.test(next)) {
		rest.push(`${arg}=${next}`);
		i++;
	} else {
		rest.push(arg);
	}
}
let parsed;
try {
	parsed = parseArgs({ args: rest, options: optionSpec() });
} catch (error) {
	refuse(error.message);
}
const { values: o } = parsed;

function optionSpec() {
	return {
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
		email: { type: "string" },
		role: { type: "string" },
		user: { type: "string" },
		invite: { type: "boolean" },
	};
}

const options = o.url ? { baseUrl: o.url.replace(/\/+$/, "") } : {};
/** A numeric option's value: a whole number, or the command line is refused (nothing is sent). */
function int(name, alternative = "") {
	const value = o[name];
	if (value === undefined) return undefined;
	if (!/^-?\d{1,15}$/.test(value)) refuse(`--${name} must be a whole number${alternative}, not '${value}'.`);
	return Number(value);
}
/** A limit override: a whole number, or `null` to clear the override (the plan's value applies). */
function override(name) {
	return o[name] === "null" ? null : int(name, " or null");
}
function need(name) {
	if (o[name] === undefined) refuse(`--${name} is required for ${command}`);
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
					...(o.credits !== undefined ? { credits: int("credits") } : {}),
				},
				options,
			);
		case "list-accounts": {
			const params = new URLSearchParams();
			if (o.limit !== undefined) params.set("limit", String(int("limit")));
			if (o.cursor) params.set("cursor", o.cursor);
			// The envelope's pagination too: its next_cursor is what --cursor takes.
			const { data, pagination } = await adminRequestEnvelope(
				"GET",
				`/accounts${params.size ? `?${params}` : ""}`,
				undefined,
				options,
			);
			return { data, pagination };
		}
		case "get-account":
			return adminRequest("GET", `/accounts/${need("account")}`, undefined, options);
		case "update-account": {
			const limits = {};
			if (o.rpm !== undefined) limits.requests_per_minute = override("rpm");
			if (o.concurrent !== undefined) limits.concurrent_interviews = override("concurrent");
			if (o.monthly !== undefined) limits.monthly_interviews = override("monthly");
			return adminRequest(
				"PATCH",
				`/accounts/${need("account")}`,
				{
					...(o.plan ? { plan: o.plan } : {}),
					...(o.company ? { company_name: o.company } : {}),
					...(o["credits-delta"] !== undefined ? { credits_delta: int("credits-delta") } : {}),
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
		case "create-user":
			return adminRequest(
				"POST",
				`/accounts/${need("account")}/users`,
				{ email: need("email"), role: need("role"), ...(o.invite ? { invite: true } : {}) },
				options,
			);
		case "list-users":
			return adminRequest("GET", `/accounts/${need("account")}/users`, undefined, options);
		case "delete-user":
			return adminRequest("DELETE", `/accounts/${need("account")}/users/${need("user")}`, undefined, options);
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
