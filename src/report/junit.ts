/** JUnit XML: one test case per invariant, so CI dashboards show which property broke. */
export interface JunitCase {
  readonly name: string;
  readonly passed: boolean;
  readonly message?: string;
  readonly detail?: string;
  /** Present: the case was not run, and why (an invariant the implementation's capabilities cannot witness). Never a pass. */
  readonly skipped?: string;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: XML 1.0 forbids these control characters, so they are dropped
const XML_FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g;

const xmlEscape = (s: string) =>
  s
    .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
    .replace(XML_FORBIDDEN, '');

/** `properties`: name -> value, written as the suite's <properties> (JUnit's place for run facts). */
export function junitXml(
  suite: string,
  cases: readonly JunitCase[],
  seconds: number,
  properties: Readonly<Record<string, string>> = {},
): string {
  const failures = cases.filter((c) => !c.passed && c.skipped === undefined).length;
  const skipped = cases.filter((c) => c.skipped !== undefined).length;
  const skippedAttr = skipped ? ` skipped="${skipped}"` : '';
  const body = cases
    .map((c) => {
      const open = `    <testcase classname="${xmlEscape(suite)}" name="${xmlEscape(c.name)}" time="${seconds.toFixed(3)}"`;
      if (c.skipped !== undefined)
        return `${open}>\n      <skipped message="${xmlEscape(c.skipped)}"/>\n    </testcase>`;
      if (c.passed) return `${open}/>`;
      return `${open}>\n      <failure message="${xmlEscape(c.message ?? 'violated')}">${xmlEscape(c.detail ?? '')}</failure>\n    </testcase>`;
    })
    .join('\n');
  const props = Object.entries(properties);
  const propsXml = props.length
    ? `    <properties>\n${props.map(([k, v]) => `      <property name="${xmlEscape(k)}" value="${xmlEscape(v)}"/>`).join('\n')}\n    </properties>\n`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites tests="${cases.length}" failures="${failures}"${skippedAttr}>
  <testsuite name="${xmlEscape(suite)}" tests="${cases.length}" failures="${failures}"${skippedAttr} time="${seconds.toFixed(3)}">
${propsXml}${body}
  </testsuite>
</testsuites>
`;
}
