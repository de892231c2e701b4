/**
 * How long a dashboard session lives (docs/dashboard.md): it ends after 12 hours without a
 * request, and 7 days after sign-in whatever happens. Here because the dashboard, which signs
 * users in, and the interview's room, which closes a live view whose session ended, both apply it.
 */
export const SESSION_IDLE_MS = 12 * 3_600_000;
export const SESSION_ABSOLUTE_MS = 7 * 24 * 3_600_000;
