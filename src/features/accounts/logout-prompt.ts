import { escapeHtml } from '~/lib/html';
import { homePath, LOGOUT_PATH } from '~/lib/paths';

/** The logout confirmation, as the HTML fragment GET /auth/logout/ returns (loaded into the header dialog). */
export interface LogoutTexts {
  title: string;
  question: string;
  confirm: string;
  cancel: string;
}


/**
 * In the dialog, Cancel is a `formmethod="dialog"` button (closes it, nothing sent); on the
 * full page (no JavaScript) it is a link home.
 */
export function logoutPromptHtml(x: LogoutTexts, full: boolean): string {
  const cancel = full
    ? `<a class="btn" href="${homePath()}">${escapeHtml(x.cancel)}</a>`
    : `<button class="btn" type="submit" formmethod="dialog" formnovalidate value="cancel" autofocus>${escapeHtml(x.cancel)}</button>`;
  return `<form class="logout-prompt" method="post" action="${LOGOUT_PATH}">` +
    `<h2 id="logout-title">${escapeHtml(x.title)}</h2>` +
    `<p>${escapeHtml(x.question)}</p>` +
    `<div class="logout-actions">${cancel}<button class="btn btn-primary" type="submit" value="confirm">${escapeHtml(x.confirm)}</button></div>` +
    `</form>`;
}
