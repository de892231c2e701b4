/**
 * `text` cut to at most `max` UTF-16 code units (the unit of the API's length limits) without
 * splitting a surrogate pair: a cut that would leave half of one (an emoji's) ends before it, so
 * the result is as well-formed as the text was.
 */
export function cutText(text: string, max: number): string {
	if (text.length <= max) return text;
	const cut = text.slice(0, Math.max(0, max));
	const last = cut.charCodeAt(cut.length - 1);
	return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
