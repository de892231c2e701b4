export const SCOPES = [
	"interviews:read",
	"interviews:write",
	"interviews:delete",
	"interviews:read_recordings",
	"webhooks:read",
	"webhooks:write",
	"analytics:read",
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
	return (SCOPES as readonly string[]).includes(value);
}
