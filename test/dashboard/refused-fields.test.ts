import { describe, expect, it, vi } from "vitest";
import { dashboardAccount, signedIn } from "../support/dashboard-helpers";
import { call, validInterview } from "../support/helpers";
import { startInterview } from "../support/lifecycle-helpers";

// Each sign-in hashes at 600,000 PBKDF2 iterations: slower than the default 5 s under load.
vi.setConfig({ testTimeout: 30_000 });

/** An input, select or textarea of a page, by its attributes. */
interface Control {
	tag: string;
	attrs: Record<string, string>;
}

/** What a page says of its refused fields, read with workerd's HTML parser. */
interface PageFields {
	controls: Control[];
	/** Every element's id, in page order (an id given twice is listed twice). */
	ids: string[];
	/** The text of the element with each id (its descendants' text included, entities decoded). */
	texts: Map<string, string>;
	/** The `href` of the first link inside the element with each id. */
	links: Map<string, string>;
	/** Every label's `for`, in page order. */
	labels: string[];
}

function decode(text: string): string {
	return text
		.replaceAll("&lt;", "<")
		.replaceAll("&gt;", ">")
		.replaceAll("&quot;", '"')
		.replaceAll("&#39;", "'")
		.replaceAll("&amp;", "&");
}

async function readFields(html: string): Promise<PageFields> {
	const page: PageFields = { controls: [], ids: [], texts: new Map(), links: new Map(), labels: [] };
	await new HTMLRewriter()
		.on("input, select, textarea", {
			element(e) {
				page.controls.push({ tag: e.tagName, attrs: Object.fromEntries(e.attributes) });
			},
		})
		.on("[id]", {
			element(e) {
				page.ids.push(e.getAttribute("id") as string);
			},
		})
		.on("label[for]", {
			element(e) {
				page.labels.push(e.getAttribute("for") as string);
			},
		})
		.transform(new Response(html))
		.text();
	// The texts and links of the elements refused controls point at, each read on its own.
	const wanted = new Set(
		page.controls.map((c) => c.attrs["aria-describedby"]).filter((id): id is string => id !== undefined),
	);
	for (const id of wanted) {
		if (!/^[\w-]+$/.test(id)) throw new Error(`an id a selector cannot name: ${id}`);
		let text: string | null = null;
		await new HTMLRewriter()
			.on(`[id="${id}"]`, {
				text(t) {
					text = (text ?? "") + t.text;
				},
			})
			.on(`[id="${id}"] a[href]`, {
				element(e) {
					if (!page.links.has(id)) page.links.set(id, e.getAttribute("href") as string);
				},
			})
			.transform(new Response(html))
			.text();
		if (text !== null) page.texts.set(id, decode(text));
	}
	return page;
}

/**
 * Asserts the page's refused fields: each of `marked` (field name to a part of its message) on
 * every visible control of that name is `aria-invalid="true"`, described by an element holding
 * the message, whose link leads to a control of that name; each of `unmarked` carries neither
 * attribute. Ids are unique on the page, and every label names a control on it.
 */
async function expectMarks(html: string, marked: Record<string, string>, unmarked: string[]) {
	const page = await readFields(html);
	expect(page.ids.length).toBe(new Set(page.ids).size);
	const controlIds = new Set(page.controls.map((c) => c.attrs.id));
	expect(page.labels.filter((id) => !controlIds.has(id))).toEqual([]);
	for (const [name, message] of Object.entries(marked)) {
		const named = page.controls.filter((c) => c.attrs.name === name && c.attrs.type !== "hidden");
		expect(named.length, name).toBeGreaterThan(0);
		for (const control of named) {
			expect(control.attrs["aria-invalid"], name).toBe("true");
			const described = control.attrs["aria-describedby"] as string;
			expect(page.texts.get(described), name).toContain(message);
			expect(page.texts.get(described), name).toContain(name);
			const href = page.links.get(described) as string;
			expect(href, name).toMatch(/^#/);
			const target = page.controls.filter((c) => c.attrs.id === href.slice(1));
			expect(
				target.map((c) => c.attrs.name),
				name,
			).toEqual([name]);
		}
	}
	for (const name of unmarked) {
		const named = page.controls.filter((c) => c.attrs.name === name);
		expect(named.length, name).toBeGreaterThan(0);
		for (const control of named) {
			expect(control.attrs["aria-invalid"], name).toBeUndefined();
			expect(control.attrs["aria-describedby"], name).toBeUndefined();
		}
	}
	return page;
}

/** The text of the refusal notice's item naming `name` (null when none does), and its link. */
async function noticeItem(html: string, name: string): Promise<{ text: string; href: string | null } | null> {
	let found: { text: string; href: string | null } | null = null;
	let current: { text: string; href: string | null } | null = null;
	await new HTMLRewriter()
		.on('[role="alert"] li', {
			element(e) {
				current = { text: "", href: null };
				const item = current;
				e.onEndTag(() => {
					if (item.text.startsWith(`${name}:`)) found = item;
				});
			},
			text(t) {
				if (current) current.text += decode(t.text);
			},
		})
		.on('[role="alert"] li a[href]', {
			element(e) {
				if (current) current.href = e.getAttribute("href");
			},
		})
		.transform(new Response(html))
		.text();
	return found;
}

describe("a refused form's fields", () => {
	it("are marked invalid on the create-interview form, described by their message and linked from the notice", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const refused = await owner.post("/dashboard/interviews/new", {
			_csrf: await owner.csrf(),
			form_id: await owner.formId("/dashboard/interviews/new"),
			candidate_email: "not-an-address",
			position: "Tester",
			skills: "SQL",
			duration_minutes: "5",
		});
		expect(refused.status).toBe(422);
		await expectMarks(
			refused.text,
			{
				candidate_email: "Must be a valid e-mail address",
				duration_minutes: "Must be an integer from 15 to 90",
			},
			[
				"candidate_name",
				"position",
				"skills",
				"difficulty",
				"scheduled_at",
				"instructions",
				"send_invitation",
				"test_mode",
			],
		);
		// The page of a form that was not refused marks nothing.
		const fresh = await readFields((await owner.get("/dashboard/interviews/new")).text);
		expect(fresh.controls.filter((c) => "aria-invalid" in c.attrs)).toEqual([]);
	});

	it("are marked on an interview's change form, an invitation, a key, an endpoint and the list's filters", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const token = await owner.csrf();
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		const id = created.body.data.id as string;
		const change = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			position: "Typed Position",
			duration_minutes: "999",
		});
		expect(change.status).toBe(422);
		await expectMarks(change.text, { duration_minutes: "Must be an integer from 15 to 90" }, [
			"position",
			"candidate_email",
			"skills",
			"scheduled_at",
			"reschedule_reason",
			"reason",
		]);

		const invite = await owner.post("/dashboard/team", {
			_csrf: token,
			email: "typed@example.com",
			role: "boss",
		});
		expect(invite.status).toBe(422);
		await expectMarks(invite.text, { role: "Must be one of owner, member" }, ["email"]);

		const key = await owner.post("/dashboard/settings/api-keys", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/api-keys"),
			name: "",
			environment: "live",
		});
		expect(key.status).toBe(422);
		await expectMarks(
			key.text,
			{ name: "Must be 1 to 100 characters", scopes: "Choose at least one scope" },
			["environment", "expires_on"],
		);

		const hook = await owner.post("/dashboard/settings/webhooks", {
			_csrf: token,
			form_id: await owner.formId("/dashboard/settings/webhooks"),
			url: "http://169.254.169.254/latest",
			events: "*",
		});
		expect(hook.status).toBe(422);
		await expectMarks(hook.text, { url: "Must be an https:// URL" }, ["events"]);
		// The service's refusal: its fields are listed once, below a message that does not repeat them.
		expect(hook.text).toContain("Check the fields named below.");
		expect(hook.text.match(/Must be an https:\/\/ URL/g)).toHaveLength(1);
		expect(hook.text).not.toContain("Invalid request");

		const endpoint = await call("POST", "/v1/webhooks", {
			key: a.live,
			body: { url: "https://hooks.example.com/marks", events: ["*"] },
		});
		const edit = await owner.post(`/dashboard/settings/webhooks/${endpoint.body.data.id}/edit`, {
			_csrf: token,
			url: "https://hooks.example.com/typed",
		});
		expect(edit.status).toBe(422);
		await expectMarks(edit.text, { events: "Must name at least one event" }, ["url"]);

		const list = await owner.get("/dashboard/interviews?created_from=garbage&position=Tester");
		await expectMarks(list.text, { created_from: "Must be a date (YYYY-MM-DD)" }, [
			"status",
			"candidate_email",
			"position",
			"created_to",
			"scheduled_from",
			"scheduled_to",
		]);
	});

	it("names a field the form has no input for in the notice, unlinked, and marks no input for it", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		// An interview in progress: its change form has no skills input.
		const { id } = await startInterview(a.test);
		const change = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: await owner.csrf(),
			skills: " , ",
		});
		expect(change.status).toBe(422);
		expect(change.text).toContain("Nothing was changed.");
		const item = await noticeItem(change.text, "skills");
		expect(item?.text).toContain("Must name at least one skill");
		expect(item?.href).toBeNull();
		const page = await readFields(change.text);
		expect(page.controls.filter((c) => "aria-invalid" in c.attrs)).toEqual([]);
	});

	it("refuses an emptied field the interview must keep, marking it, and a reason alone as no change", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		const id = created.body.data.id as string;
		const token = await owner.csrf();
		for (const [name, message] of [
			["candidate_email", "Must not be empty"],
			["position", "Must not be empty"],
			["skills", "Must name at least one skill"],
			["scheduled_at", "Must not be empty"],
			["duration_minutes", "Must not be empty"],
		] as const) {
			// Emptied beside a real change: the change is not made either.
			const refused = await owner.post(`/dashboard/interviews/${id}/update`, {
				_csrf: token,
				[name]: "  ",
				difficulty: "senior",
			});
			expect(refused.status).toBe(422);
			expect(refused.text).toContain("Nothing was changed.");
			await expectMarks(refused.text, { [name]: message }, ["difficulty"]);
		}
		const data = (await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data;
		expect(data).toMatchObject({ difficulty: "intermediate", position: "Backend Engineer" });
		// A reason alone changes nothing, said in words, with no field named.
		const reason = await owner.post(`/dashboard/interviews/${id}/update`, {
			_csrf: token,
			reschedule_reason: "only a reason",
		});
		expect(reason.status).toBe(422);
		expect(reason.text).toContain("Nothing was changed.");
		expect(reason.text).not.toContain("Give at least one field");
		const events = await call("GET", `/v1/events?interview_id=${id}`, { key: a.live });
		expect(events.body.data.map((e: { type: string }) => e.type)).toEqual(["interview.scheduled"]);
	});
});

describe("the interview page's cancel form", () => {
	it("refuses a reason over 1,000 characters as the API does, and keeps one of exactly 1,000 in full", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const created = await call("POST", "/v1/interviews", { key: a.live, body: validInterview() });
		const id = created.body.data.id as string;
		const path = `/dashboard/interviews/${id}`;
		const token = await owner.csrf(path);
		const long = "b".repeat(1001);
		const refused = await owner.post(`${path}/cancel`, { _csrf: token, reason: long });
		expect(refused.status).toBe(422);
		expect(refused.text).toContain("The interview was not cancelled.");
		const page = await expectMarks(refused.text, { reason: "Must be at most 1000 characters" }, []);
		const input = page.controls.find((c) => c.attrs.name === "reason");
		expect(input?.attrs.value).toBe(long);
		expect(input?.attrs.maxlength).toBe("1000");
		// The change form's reschedule reason has the API's bound too.
		expect(page.controls.find((c) => c.attrs.name === "reschedule_reason")?.attrs.maxlength).toBe("1000");
		expect((await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data.status).toBe("scheduled");
		// 1,000 UTF-16 code units, the last two an emoji's: the API's measure, kept whole.
		const reason = `${"c".repeat(998)}😀`;
		expect(reason.length).toBe(1000);
		const cancelled = await owner.post(`${path}/cancel`, { _csrf: token, reason });
		expect(cancelled.status).toBe(303);
		const fetched = (await call("GET", `/v1/interviews/${id}`, { key: a.live })).body.data;
		expect(fetched.status).toBe("cancelled");
		expect(fetched.cancellation.reason).toBe(reason);
	});
});

describe("the webhook endpoint's enable and disable form", () => {
	it("takes only true or false: anything else is refused naming active, and changes nothing", async () => {
		const a = await dashboardAccount();
		const owner = await signedIn(a.owner);
		const endpoint = await call("POST", "/v1/webhooks", {
			key: a.live,
			body: { url: "https://hooks.example.com/toggle", events: ["*"] },
		});
		const id = endpoint.body.data.id as string;
		const path = `/dashboard/settings/webhooks/${id}`;
		const token = await owner.csrf(path);
		const active = async () => (await call("GET", `/v1/webhooks/${id}`, { key: a.live })).body.data.active;
		const forms: Record<string, string>[] = [{ active: "maybe" }, { active: "TRUE" }, {}];
		for (const form of forms) {
			const refused = await owner.post(`${path}/toggle`, { _csrf: token, ...form });
			expect(refused.status, JSON.stringify(form)).toBe(422);
			expect(refused.text).toContain("Nothing was changed.");
			expect((await noticeItem(refused.text, "active"))?.text).toContain("Must be true or false");
			expect(await active()).toBe(true);
		}
		const off = await owner.post(`${path}/toggle`, { _csrf: token, active: "false" });
		expect(off.status).toBe(303);
		expect(off.headers.get("Location")).toContain("disabled=1");
		expect(await active()).toBe(false);
		const on = await owner.post(`${path}/toggle`, { _csrf: token, active: "true" });
		expect(on.status).toBe(303);
		expect(await active()).toBe(true);
	});
});
