/**
 * A bot-check token solved outside a browser, for calls a test makes itself (the islands solve
 * their own in the page): the challenge call's answer in, the token out. Shared by the
 * integration harness and the end-to-end fixtures. Fast at the test servers' low
 * APP_CHECK_DIFFICULTY; at the real one, about a tenth of a second.
 */
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { altchaToken, type AppCheckChallenge } from '~/lib/app-check';

export async function solveAppCheck(answer: AppCheckChallenge): Promise<string> {
  if (answer.provider !== 'altcha') throw new Error(`the server uses ${answer.provider}, not the proof of work`);
  const solution = await solveChallenge({ challenge: answer.challenge, deriveKey });
  if (!solution) throw new Error('the challenge could not be solved');
  return altchaToken({ challenge: answer.challenge, solution });
}
