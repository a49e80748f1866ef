/**
 * What regular expressions see: every RegExp execution (test, exec, match, replace, split, ...
 * all run through RegExp.prototype.exec once it is replaced) while `fn` runs, as the length of
 * the text it scanned. A check that caps a field before any pattern runs shows here as no long
 * scan, on any machine, where a timing would depend on the machine's load.
 */
export function longestPatternInput(fn: () => unknown): number {
	const exec = RegExp.prototype.exec;
	let longest = 0;
	RegExp.prototype.exec = function (this: RegExp, text: string) {
		longest = Math.max(longest, String(text).length);
		return exec.call(this, text);
	};
	try {
		fn();
	} catch {
		// refusing is an expected outcome; only what the patterns saw matters here
	} finally {
		RegExp.prototype.exec = exec;
	}
	return longest;
}
