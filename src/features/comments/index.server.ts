/** The server door of the comments feature: what pages and other features may use. */
export { commentForm, commentJson, commentsPageJson, refusalResponse } from './api.server';
export { chapterForComments, deleteOwnComment, editOwnComment, likeComment, listComments, postComment } from './comments.server';
export { handleCommentsForm, placeOf, placeUrl } from './page.server';
export { seriesComments } from './series.server';
