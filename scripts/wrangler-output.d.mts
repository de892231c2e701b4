// Types of wrangler-output.mjs for the TypeScript tests.
export function stripAnsi(text: string): string;
export function wranglerOutputFilter(options: {
	color: boolean;
	cronNote: string;
}): (line: string) => string | null;
