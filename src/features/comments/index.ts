/** The browser-safe door of the comments feature: what pages and other features may use. */
export { COMMENT_MAX, commentsPath, parseCommentId } from './rules';
export { BAN_LENGTHS, BAN_REASON_MAX, BLOCKED_WORD_MAX, REPORT_REASONS } from './moderation';
export { enhanceComments } from './comments.client';
