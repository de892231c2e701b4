// Types of wrangler-env.mjs for the TypeScript tests.
export function wranglerEnv(env: Record<string, string | undefined>): Record<string, string | undefined>;
