/** INFO (or CLUSTER INFO) reply text -> field map: `name:value` lines, section headers (`# Memory`) skipped. */
export function parseInfo(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields[line.slice(0, colon)] = line.slice(colon + 1).trim();
  }
  return fields;
}
