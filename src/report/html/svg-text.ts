/** Text on the timeline's SVG: the page's script rescales its x on zoom (html/script.ts). */
import { esc, r1 } from './escape.ts';

/** Width of one character of the timeline's 10 px labels, px: what decides whether a label fits. */
export const CHAR_PX = 6.1;

/** A text whose x the script rescales on zoom; hidden while it has less room than it needs. */
export function textAt(
  x: number,
  y: number,
  text: string,
  cls: string,
  opts: { anchor?: 'middle'; room?: number; width?: number },
): string {
  const fits = opts.room === undefined || opts.width === undefined || opts.room >= opts.width;
  const room = opts.room === undefined ? '' : ` data-room="${r1(opts.room)}" data-w="${r1(opts.width ?? 0)}"`;
  const anchor = opts.anchor ? ` text-anchor="${opts.anchor}"` : '';
  return `<text class="${cls}${fits ? '' : ' off'}" data-x="${r1(x)}" x="${r1(x)}" y="${y}"${anchor}${room}>${esc(text)}</text>`;
}
