/** The generating row's counter: elapsed seconds with one decimal, e.g. "3.2s". */
export function formatElapsed(elapsedMs: number): string {
  const seconds = Math.max(0, elapsedMs) / 1000;
  return `${(Math.floor(seconds * 10) / 10).toFixed(1)}s`;
}
