import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import { iso } from "../platform/lib/time";
import { DASHBOARD_JS_PATH } from "./script";
import type { DashboardUser } from "./session";

const CSS = `
:root{--fg:#1a1a1a;--muted:#555;--bg:#fff;--line:#c8c8c8;--accent:#0b57d0;--bad:#a50e0e;--good:#0d652d;--soft:#f3f5f8}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px;z-index:9}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid var(--line);background:var(--soft)}
header.top .brand{font-weight:700;text-decoration:none;color:var(--fg)}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
nav a[aria-current=page]{font-weight:700;text-decoration-thickness:3px}
header.top form{margin-left:auto}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin:1.5rem 0 .5rem}h3{font-size:1.05rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--soft)}
.table-wrap{overflow-x:auto}
label{display:block;font-weight:600;margin:.6rem 0 .2rem}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=number],input[type=datetime-local],input[type=date],select,textarea{width:100%;max-width:32rem;padding:.5rem;border:1px solid #767676;border-radius:4px;font:inherit}
fieldset{border:1px solid var(--line);border-radius:6px;margin:.75rem 0;max-width:40rem}
fieldset label{display:inline;font-weight:400}
.check{display:block;margin:.25rem 0}
button,.button{display:inline-block;padding:.5rem 1rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:4px;font:inherit;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--bad);border-color:var(--bad)}
.inline{display:inline}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.row>div{min-width:12rem}
.notice{padding:.75rem 1rem;border-radius:6px;margin:.75rem 0;border:1px solid}
.notice.error{border-color:var(--bad);color:var(--bad);background:#fce8e6}
:is(input,select,textarea)[aria-invalid=true]{border-color:var(--bad)}
:is(input,select,textarea)[aria-invalid=true]:not(:focus-visible){outline:2px solid var(--bad);outline-offset:1px}
.notice.ok{border-color:var(--good);color:var(--good);background:#e6f4ea}
.secret{font-family:ui-monospace,monospace;word-break:break-all;background:var(--soft);padding:.5rem;border:1px dashed var(--muted)}
.muted{color:var(--muted)}
.hint{margin:.25rem 0 0;font-size:.9em}
.status{display:inline-block;padding:0 .5rem;border-radius:1rem;border:1px solid var(--muted);font-size:.9rem}
[hidden]{display:none!important}dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl.facts dt{font-weight:600}dl.facts dd{margin:0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem}
.card{border:1px solid var(--line);border-radius:8px;padding:1rem}
.card .big{font-size:2rem;font-weight:700}
ol.timeline{padding-left:1.25rem}
svg text{font:13px system-ui,sans-serif}
.print-only{display:none}
.badge-test{display:inline-block;padding:0 .5rem;border-radius:4px;background:#7a3e00;color:#fff;font-size:.85rem;font-weight:700;letter-spacing:.02em;vertical-align:middle}
.test-banner{border:2px solid #7a3e00;background:#fff4e5;color:#4a2600;padding:.6rem 1rem;border-radius:6px;margin:.5rem 0 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center}
@media (max-width:40rem){header.top form{margin-left:0}main{padding:.5rem}h1{font-size:1.35rem}}
@media print{
 header.top,.no-print,button,.button,nav{display:none!important}
 .print-only{display:block}
 body{font-size:11pt;color:#000}
 main{max-width:none;padding:0}
 a{color:#000;text-decoration:none}
 section{break-inside:avoid}
 table{page-break-inside:auto}tr{break-inside:avoid}
 .card{border-color:#000}
}
`;

/**
 * Where the UTC time input `input` (an id; the input marked `data-utc`) shows its time in the
 * browser's time zone. Empty without script, or while the input is empty.
 */
export function LocalTimeHint({ input }: { input: string }) {
	return <p class="muted hint" id={`${input}-local`} aria-live="polite" />;
}

export interface PageProps {
	title: string;
	user?: DashboardUser | null;
	current?: string;
	/** Seconds after which the browser loads the page again (a page waiting on work in progress). */
	refreshSeconds?: number;
	children?: Child;
}

const NAV: { href: string; label: string; owner?: boolean }[] = [
	{ href: "/dashboard/interviews", label: "Interviews" },
	{ href: "/dashboard/account", label: "Account" },
	{ href: "/dashboard/settings/api-keys", label: "API keys", owner: true },
	{ href: "/dashboard/settings/webhooks", label: "Webhooks", owner: true },
	{ href: "/dashboard/team", label: "Team", owner: true },
];

export function Page({ title, user, current, refreshSeconds, children }: PageProps) {
	return (
		<html lang="en">
			<head>
				<meta charset="utf-8" />
				<meta name="viewport" content="width=device-width, initial-scale=1" />
				{/* No icon: without this, every browser asks for /favicon.ico and logs its 404. */}
				<link rel="icon" href="data:," />
				<title>{`${title} · Interview dashboard`}</title>
				{refreshSeconds ? <meta http-equiv="refresh" content={String(refreshSeconds)} /> : null}
				<style>{raw(CSS)}</style>
			</head>
			<body>
				<a class="skip" href="#main">
					Skip to content
				</a>
				{user ? (
					<header class="top">
						<a class="brand" href="/dashboard/interviews">
							{user.auth.companyName}
						</a>
						<nav aria-label="Main">
							<ul>
								{NAV.filter((n) => !n.owner || user.user.role === "owner").map((n) => (
									<li>
										<a href={n.href} aria-current={current === n.href ? "page" : undefined}>
											{n.label}
										</a>
									</li>
								))}
							</ul>
						</nav>
						<form method="post" action="/dashboard/logout" class="inline">
							<input type="hidden" name="_csrf" value={user.session.csrfToken} />
							<span class="muted">
								{user.user.email} ({user.user.role}){" "}
							</span>
							<button type="submit" class="secondary">
								Sign out
							</button>
						</form>
					</header>
				) : null}
				<main id="main">{children}</main>
				<script src={DASHBOARD_JS_PATH} defer />
			</body>
		</html>
	);
}

/** The label of test-mode data (decisions.md, "Test keys and live data"): words, not only colour. */
export function TestBadge() {
	return (
		<span class="badge-test" data-test-label>
			Test
		</span>
	);
}

interface BannerProps {
	liveHref?: string;
	children?: Child;
}

/** The bar above every page of data apart from live data: its label, its words, the way back. */
function DataBanner(props: BannerProps & { id: string; label: string; badge: Child; text: string }) {
	return (
		<div class="test-banner" role="note" aria-label={props.label} id={props.id}>
			{props.badge}
			<span>{props.children ?? props.text}</span>
			{props.liveHref ? <a href={props.liveHref}>View live data</a> : null}
		</div>
	);
}

/** Shown above every page of test data, as Stripe's "Viewing test data" bar. */
export function TestBanner(props: BannerProps) {
	return (
		<DataBanner
			{...props}
			id="test-banner"
			label="Test data"
			badge={<TestBadge />}
			text="You are viewing test data: test interviews cost no credit and e-mail no one."
		/>
	);
}

export function DevBadge() {
	return (
		<span class="badge-test" data-dev-label>
			Dev
		</span>
	);
}

/** The dev sandbox's banner: its data is apart from the account's production data. */
export function DevBanner(props: BannerProps) {
	return (
		<DataBanner
			{...props}
			id="dev-banner"
			label="Dev sandbox data"
			badge={<DevBadge />}
			text="You are viewing the dev sandbox: interviews made with dev keys, apart from the account's data. They cost no credit, e-mail no one, and are deleted 7 days after they were made."
		/>
	);
}

export function Csrf({ user }: { user: DashboardUser }) {
	return <input type="hidden" name="_csrf" value={user.session.csrfToken} />;
}

/** A page's refusal in words, with the fields it names by the form's own names. */
export type Refusal = { message: string; fields?: Record<string, string> } | null | undefined;

/**
 * The id of the notice's item holding the message for the field `name`: letters, digits and `_`
 * are kept, any other code unit is written as `-` and its hex code and `-`, so two names never
 * share an id.
 */
export function fieldErrorId(name: string): string {
	return `err-${name.replace(/[^A-Za-z0-9_]/g, (ch) => `-${ch.charCodeAt(0).toString(16)}-`)}`;
}

/**
 * The attributes of a form's input named `name`: when the refusal names that field, it is marked
 * invalid and described by its message in the notice; otherwise none.
 */
export function invalidProps(error: Refusal, name: string): Record<string, string> {
	if (!error?.fields || !Object.hasOwn(error.fields, name)) return {};
	return { "aria-invalid": "true", "aria-describedby": fieldErrorId(name) };
}

/**
 * A form's fields, read from one map of each field's input id: the attributes of a field's input
 * (its id, its name and its refused mark, `invalidProps`), its id for its label, and the notice's links
 * (`targets`). An input, its label and the notice's link to it all take the id from the map, so
 * they cannot drift apart. A group of checkboxes maps its field to its first box's id.
 */
export function formFields<F extends string>(ids: Readonly<Record<F, string>>, error: Refusal) {
	return {
		input: (name: F) => ({ id: ids[name], name, ...invalidProps(error, name) }),
		/** The id of the field's input, for its label's `for`. */
		id: (name: F) => ids[name],
		targets: ids as Readonly<Record<string, string>>,
	};
}

/**
 * A refusal: its message, and each field it names with its message. `targets` gives, by field
 * name, the id of the input of the form shown on the page; such a field's name links to its input.
 * A field without one (a hidden input, a field the form does not have) is named as plain text.
 */
export function ErrorNotice({ error, targets = {} }: { error?: Refusal; targets?: Record<string, string> }) {
	if (!error) return null;
	const fields = Object.entries(error.fields ?? {});
	return (
		<div class="notice error" role="alert">
			<p>{error.message}</p>
			{fields.length > 0 ? (
				<ul>
					{fields.map(([name, text]) => {
						const target = Object.hasOwn(targets, name) ? targets[name] : undefined;
						return (
							<li id={fieldErrorId(name)}>
								{target ? (
									<a href={`#${target}`}>
										<strong>{name}</strong>
									</a>
								) : (
									<strong>{name}</strong>
								)}
								: {text}
							</li>
						);
					})}
				</ul>
			) : null}
		</div>
	);
}

export function fmt(ms: number | null | undefined): string {
	if (ms === null || ms === undefined) return "—";
	return `${iso(ms).replace("T", " ").slice(0, 16)} UTC`;
}
