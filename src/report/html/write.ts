/** The end of every run/certify/scenario job: the folder's report.html, and a fresh reports/index.html. */
import fs from 'node:fs';
import path from 'node:path';
import { writeIndex } from '../index-page.ts';
import { readReportData, REPORT_FILE } from './data.ts';
import { renderReport } from './page.ts';

/** Reads `dir`'s JSON (and metrics.prom) and writes `dir/report.html`; returns its path. */
export function writeReportFiles(dir: string): string {
  const file = path.join(dir, REPORT_FILE);
  fs.writeFileSync(file, renderReport(readReportData(dir)));
  writeIndex(path.dirname(path.resolve(dir)));
  return file;
}
