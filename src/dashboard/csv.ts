/**
 * RFC 4180 CSV: comma-separated, fields in double quotes may hold commas, quotes (doubled) and
 * line breaks; CRLF or LF line ends; a UTF-8 byte-order mark is ignored. The first line names
 * the columns. Blank lines are skipped. Bounded: at most 1,000 lines and 100 columns. A row with
 * more cells than the header names is kept with its `error`, for the page to show as that row's.
 */
export type CsvRow = { line: number; cells: Record<string, string>; error?: string };
export type CsvTable = { header: string[]; rows: CsvRow[] } | { error: string };

export function parseCsv(text: string): CsvTable {
	const records: { line: number; fields: string[] }[] = [];
	let field = "";
	let fields: string[] = [];
	let quoted = false;
	let line = 1;
	let recordLine = 1;
	const source = text.replace(/^\uFEFF/, "");
	const endRecord = () => {
		fields.push(field);
		if (!(fields.length === 1 && fields[0] === "")) records.push({ line: recordLine, fields });
		fields = [];
		field = "";
	};
	for (let i = 0; i < source.length; i++) {
		const ch = source[i];
		if (quoted) {
			if (ch === '"') {
				if (source[i + 1] === '"') {
					field += '"';
					i++;
				} else quoted = false;
			} else {
				if (ch === "\n") line++;
				field += ch;
			}
		} else if (ch === '"' && field === "") {
			quoted = true;
		} else if (ch === ",") {
			fields.push(field);
			field = "";
			if (fields.length > 100) return { error: `Line ${recordLine} has more than 100 columns.` };
		} else if (ch === "\n" || ch === "\r") {
			if (ch === "\r" && source[i + 1] === "\n") i++;
			endRecord();
			line++;
			recordLine = line;
			if (records.length > 1000) return { error: "The file has more than 1,000 lines." };
		} else {
			field += ch;
		}
	}
	if (quoted) return { error: `Line ${recordLine} has a quote that is never closed.` };
	if (field !== "" || fields.length > 0) endRecord();
	const [head, ...body] = records;
	if (!head) return { error: "The file is empty." };
	const header = head.fields.map((h) => h.trim().toLowerCase());
	const rows: CsvRow[] = [];
	for (const r of body) {
		const cells: Record<string, string> = {};
		header.forEach((name, i) => {
			cells[name] = (r.fields[i] ?? "").trim();
		});
		rows.push(
			r.fields.length > header.length
				? { line: r.line, cells, error: `Has ${r.fields.length} cells; the header names ${header.length}.` }
				: { line: r.line, cells },
		);
	}
	return { header, rows };
}
