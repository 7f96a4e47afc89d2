/** The HTML report: what the lead wires into the end of run/certify/scenario jobs. */
export { writeReportFiles } from './write.ts';
export { renderReport, modelFor } from './page.ts';
export {
  readReportData,
  writeCoverageFile,
  COVERAGE_FILE,
  REPORT_FILE,
  RESULT_FILE,
  COUNTEREXAMPLE_FILE,
} from './data.ts';
export type { ReportData, RunSummary } from './data.ts';
export { writeIndex, listRuns, renderIndex, INDEX_FILE } from '../index-page.ts';
export { writeMetricsFile, readMetricsFile, parseMetrics, METRICS_FILE } from '../metrics-file.ts';
export { coverage, mergeCoverage } from '../coverage.ts';
