/** Text and attribute escaping: everything on the page comes from files a run wrote, so nothing is trusted as markup. */
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** JSON inside <script type="application/json">: `<` escaped so no `</script>` can end the block early. */
export function jsonScript(id: string, value: unknown): string {
  const text = JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return `<script type="application/json" id="${esc(id)}">${text}</script>`;
}

/** Round to a tenth of a pixel/ms: keeps 10,000-bar SVGs small without visible loss. */
export function r1(n: number): string {
  return String(Math.round(n * 10) / 10);
}

/** "12 ms", "1.5 ms", "2.31 s" */
export function duration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (Math.abs(ms) >= 10_000) return `${(ms / 1000).toFixed(1)} s`;
  if (Math.abs(ms) >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  return `${Number.isInteger(ms) ? ms : ms.toFixed(1)} ms`;
}
