/** The browser-safe door of the comments feature: what pages and other features may use. */
export { COMMENT_MAX, commentsPath, parseCommentId } from './rules';
