// Types of seed-sql.mjs for the TypeScript tests.
export function seedId(index: number): string;
export function seedSql(options: {
	accountId: string;
	count: number;
	first?: number;
	before: number;
}): string;
export function seedCommandArgs(options: { persistTo: string; file: string }): string[];
