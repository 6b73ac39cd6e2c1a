/**
 * Every feature's part of a reader's own data (docs/privacy.md), in one list for the export and
 * the deletion (src/features/accounts/data.server.ts): a feature holding reader rows adds its
 * part here, and both pages see it.
 */
import { libraryAccountData } from '~/features/library/index.server';
import { notificationsAccountData } from '~/features/notifications/index.server';
import { commentsAccountData } from '~/features/comments/index.server';
import { walletAccountData } from '~/features/wallet/index.server';
import { commerceAccountData } from '~/features/commerce/index.server';
import { subscriptionsAccountData } from '~/features/subscriptions/index.server';
import { studioAccountData } from '~/features/studio/index.server';

export const READER_DATA_PARTS = [libraryAccountData, notificationsAccountData, commentsAccountData, walletAccountData, commerceAccountData, subscriptionsAccountData, studioAccountData];
