/** The browser-safe door of the support desk: the search box's bound. */
export { DESK_QUERY_MAX } from './rules';
