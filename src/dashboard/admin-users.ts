import { Hono } from "hono";
import { requireAccount } from "../accounts/admin-routes";
import { getDb } from "../platform/db/client";
import type { AppBindings } from "../platform/http/context";
import { ok, okList } from "../platform/http/envelope";
import { appUrl } from "../platform/http/urls";
import { noQuery, validate } from "../platform/http/validation";
import { createUser, newUserBody, userNotFound, userView } from "./users";
import { deleteUser, findUser, listUsers } from "./users-repo";

/**
 * The admin API's dashboard users (decisions.md): `POST` answers the user with a one-time
 * `password` (shown once, stored only hashed); the Team page invites by e-mail instead. Mounted
 * after the admin routes, whose admin-token check and body guard run first for these too.
 */
export const adminUserRoutes = new Hono<AppBindings>();

adminUserRoutes.post(
	"/accounts/:account_id/users",
	validate("query", noQuery),
	validate("json", newUserBody),
	async (c) => {
		const account = await requireAccount(c, c.req.param("account_id"));
		const body = c.req.valid("json");
		const created = await createUser(
			getDb(c.env.DB),
			account.id,
			body.email,
			body.role,
			"generate",
			c.get("now"),
			appUrl(c),
		);
		return ok(c, { ...userView(created.user), password: created.password }, 201);
	},
);

adminUserRoutes.get("/accounts/:account_id/users", validate("query", noQuery), async (c) => {
	const account = await requireAccount(c, c.req.param("account_id"));
	const rows = await listUsers(getDb(c.env.DB), account.id);
	return okList(c, rows.map(userView), { next_cursor: null, has_more: false, total_count: rows.length });
});

adminUserRoutes.delete("/accounts/:account_id/users/:user_id", validate("query", noQuery), async (c) => {
	const account = await requireAccount(c, c.req.param("account_id"));
	const db = getDb(c.env.DB);
	const id = c.req.param("user_id");
	const user = await findUser(db, account.id, id);
	if (!user) throw userNotFound(id);
	// Its sessions go with it: a deleted user is signed out everywhere at once.
	await deleteUser(db, account.id, id);
	return ok(c, { ...userView(user), deleted: true });
});
