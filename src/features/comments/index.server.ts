/** The server door of the comments feature: what pages and other features may use. */
export { commentForm, commentJson, commentsPageJson, refusalResponse } from './api.server';
export { chapterForComments, deleteOwnComment, editOwnComment, likeComment, listComments, postComment } from './comments.server';
export {
  addBlockedWord, banReader, bansInForce, commentBanNotice, liftBan, moderateComment, moderationQueue, MODERATION_ACTIONS, muteAuthorOf, mutedReaders, muteReader,
  removeBlockedWord, reportComment, siteBlockedWords,
} from './moderation.server';
export type { ModerationAction } from './moderation.server';
export { handleCommentsForm, placeOf, placeUrl } from './page.server';
export { seriesComments } from './series.server';
export { commentsAccountData } from './account-data.server';
