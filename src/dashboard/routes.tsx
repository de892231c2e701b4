import { Hono } from "hono";
import { accountPages } from "./account-pages";
import { authRoutes } from "./auth-routes";
import { csrf, ownerOnly } from "./guard";
import { interviewPages } from "./interview-pages";
import { keyPages } from "./key-pages";
import { resultsPage } from "./results-page";
import { type DashBindings, requireUser } from "./session";
import { webhookPages } from "./webhook-pages";

/** The dashboard under `/dashboard` (docs/dashboard.md). */
export const dashboardRoutes = new Hono<DashBindings>({ strict: false });

dashboardRoutes.use("*", async (c, next) => {
	await next();
	c.header("X-Frame-Options", "DENY");
	c.header("Referrer-Policy", "same-origin");
	c.header("X-Content-Type-Options", "nosniff");
	if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
});
dashboardRoutes.route("/", authRoutes);

const signedIn = new Hono<DashBindings>({ strict: false });
signedIn.use("*", requireUser, csrf);
signedIn.get("/", (c) => c.redirect("/dashboard/interviews", 303));
signedIn.route("/interviews", interviewPages);
signedIn.route("/interviews", resultsPage);
signedIn.use("/settings/*", ownerOnly);
signedIn.route("/settings/api-keys", keyPages);
signedIn.route("/settings/webhooks", webhookPages);
signedIn.route("/", accountPages);
dashboardRoutes.route("/", signedIn);

/** `/settings/api-keys`: an expired key's `renewal_url`. */
export const settingsRedirect = new Hono<DashBindings>();
settingsRedirect.get("/settings/api-keys", (c) => c.redirect("/dashboard/settings/api-keys", 302));
