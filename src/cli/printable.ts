/**
 * A message made safe for a terminal: control characters (ESC, BEL, NUL, C1 codes, bidirectional
 * overrides) and the replacement character that undecodable bytes read as are escaped (`\x1b`,
 * `\u{fffd}`), so a message quoting a binary file shows what it holds instead of acting on the
 * terminal. Printable text, non-ASCII included, is left as it is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are what it finds and escapes
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}

/**
 * A one-line message kept to a terminal's measure: past `most` characters its middle is cut and
 * counted, so a message quoting a huge value still says what and where without printing it whole.
 */
export function cutLong(text: string, most = 1000): string {
  if (text.length <= most) return text;
  const keep = Math.floor((most - 40) / 2);
  return `${text.slice(0, keep)} ...[${text.length - 2 * keep} characters cut]... ${text.slice(-keep)}`;
}
