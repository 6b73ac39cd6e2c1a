/** The server door of the support desk (docs/staff.md, "Support desk: readers"). */
export { findReaders } from './search.server';
export { deskReader, orderOfPurchase } from './reader.server';
export { grantFromForm, grantRequestKey, signOutEverywhere } from './actions.server';
