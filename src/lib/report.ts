/**
 * Reports a failure the page handled itself (the spec's "it is also reported": a redeem
 * failure, section 8) through the inline error handler (src/lib/error-handler.ts), which
 * batches it to POST /api/errors/ with the page's other errors. Nothing happens on a page
 * without the handler.
 */
export function reportProblem(message: string): void {
  (window as { inkpassReport?: (message: string) => void }).inkpassReport?.(message);
}
