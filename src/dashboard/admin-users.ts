import { Hono } from "hono";
import { z } from "zod";
import { adminOperation } from "../accounts/admin-openapi";
import { requireAccount } from "../accounts/admin-routes";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { ok, okList } from "../platform/http/envelope";
import { isoTime } from "../platform/http/openapi";
import { appUrl } from "../platform/http/urls";
import { noQuery, validate } from "../platform/http/validation";
import { closeLiveViewsOfUser } from "./session";
import { createUser, newUserBody, userNotFound, userView } from "./users";
import { deleteUser, findUser, listUsers, ROLES } from "./users-repo";

/** `userView` (users.ts) as a schema, for the OpenAPI document. */
const userSchema = z.object({
	id: z.string().meta({ description: "`usr_` id" }),
	account_id: z.string(),
	email: z.string(),
	role: z.enum(ROLES),
	password_set: z.boolean().meta({ description: "false until an invited user sets one" }),
	created_at: isoTime,
});

/**
 * The admin API's dashboard users (decisions.md): `POST` answers the user with a one-time
 * `password` (shown once, stored only hashed), or with `invite: true` an `invitation_url` that is
 * also e-mailed to the user (as the Team page's invitations). Mounted
 * after the admin routes, whose admin-token check and body guard run first for these too.
 */
const adminUserBody = newUserBody.extend({
	invite: z.boolean({ error: "Must be a boolean" }).optional(),
});

export const adminUserRoutes = new Hono<AppBindings>();

adminUserRoutes.post(
	"/accounts/:account_id/users",
	adminOperation({
		summary: "Create a dashboard user",
		description:
			"Answers a one-time `password` (in this answer only; the service keeps its hash), or with `invite: true` an `invitation_url` that is also e-mailed to the user.",
		body: adminUserBody,
		success: {
			status: 201,
			description: "Created",
			data: z.union([
				z.object({ ...userSchema.shape, password: z.string().meta({ description: "Shown once" }) }),
				z.object({
					...userSchema.shape,
					invitation_url: z.string().meta({ description: "Also e-mailed; the token is in the fragment" }),
				}),
			]),
		},
		errors: ["ACCOUNT_NOT_FOUND"],
	}),
	validate("query", noQuery),
	validate("json", adminUserBody),
	async (c) => {
		const account = await requireAccount(c, c.req.param("account_id"));
		const body = c.req.valid("json");
		const created = await createUser(c.env, {
			accountId: account.id,
			companyName: account.companyName,
			email: body.email,
			role: body.role,
			mode: body.invite ? "invite" : "generate",
			invitedBy: null,
			now: c.get("now"),
			appUrl: appUrl(c),
		});
		return ok(
			c,
			created.password !== undefined
				? { ...userView(created.user), password: created.password }
				: { ...userView(created.user), invitation_url: created.invitationUrl },
			201,
		);
	},
);

adminUserRoutes.get(
	"/accounts/:account_id/users",
	adminOperation({
		summary: "List an account's dashboard users",
		success: {
			status: 200,
			description: "Every user (one page)",
			data: z.array(userSchema),
			list: "withTotal",
		},
		errors: ["ACCOUNT_NOT_FOUND"],
	}),
	validate("query", noQuery),
	async (c) => {
		const account = await requireAccount(c, c.req.param("account_id"));
		const rows = await listUsers(getDb(c.env.DB), account.id);
		return okList(c, rows.map(userView), { next_cursor: null, has_more: false, total_count: rows.length });
	},
);

adminUserRoutes.delete(
	"/accounts/:account_id/users/:user_id",
	adminOperation({
		summary: "Delete a dashboard user",
		description: "Its sessions end with it.",
		success: {
			status: 200,
			description: "The deleted user",
			data: z.object({ ...userSchema.shape, deleted: z.literal(true) }),
		},
		errors: ["ACCOUNT_NOT_FOUND", "NOT_FOUND"],
	}),
	validate("query", noQuery),
	async (c) => {
		const account = await requireAccount(c, c.req.param("account_id"));
		const db = getDb(c.env.DB);
		const id = c.req.param("user_id");
		const user = await findUser(db, account.id, id);
		if (!user) throw userNotFound(id);
		// Its sessions go with it: a deleted user is signed out everywhere at once.
		await closeLiveViewsOfUser(c.env, id);
		await deleteUser(db, account.id, id);
		return ok(c, { ...userView(user), deleted: true });
	},
);
