/**
 * What a new password must be, at sign-up and when it is changed. The schema
 * (shared/api/accounts.ts, PasswordSchema) asks for 8 to 256 characters; here
 * zxcvbn (@zxcvbn-ts, Dropbox's estimator) asks that it be hard to guess:
 * a score of at least 3 of 4, i.e. an estimated 10^8 guesses or more, against
 * its common-password list, English words, names, keyboard runs, repeats,
 * sequences, dates and l33t spellings, with the username and the site's own
 * words counted as guessed first. So "password", "12345678", eight spaces,
 * "qwertyuiop" and "alice2024" are refused; a few uncommon words ("correct
 * horse battery") pass. A password built from the username is refused too:
 * without the username, what is left must pass on its own (zxcvbn alone rates
 * "wellington wellington" strong for the user wellington).
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** zxcvbn's score: 3 is "safely unguessable", 10^8 guesses or more. */
export const MIN_PASSWORD_SCORE = 3;

/**
 * Only the first 64 characters are rated: zxcvbn's matching grows fast with length (a 256-character string of
 * digits or l33t symbols took over two seconds of the event loop), and 64 strong characters make a strong password.
 */
const RATED_LENGTH = 64;

/** Words anyone attacking this site would try first. */
const SITE_WORDS = ['diadochi', 'diplomacy', 'successors'];

let estimator: Promise<ZxcvbnFactory> | undefined;

/**
 * Built once per process, on first use: the dictionaries take about 25 MB of heap (loaded as modules), which a
 * server that never signs anyone up does not need to pay.
 */
function zxcvbn(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, english] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...english.dictionary },
      graphs: common.adjacencyGraphs,
      translations: english.translations,
      maxLength: RATED_LENGTH,
      // The l33t matcher's worst case grows with the substitutions it tries; 10 rates every l33t password we tried as 100 does.
      l33tMaxSubstitutions: 10,
    });
  })();
  return estimator;
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * Why `password` may not be `username`'s new password, as the end of a validation message ("is too easy to guess:
 * this is a heavily used password. Add more words that are less common."), or null when it may.
 */
export async function passwordWeakness(password: string, username: string): Promise<string | null> {
  const rate = await zxcvbn();
  const result = rate.check(password, [username, ...SITE_WORDS]);
  if (result.score < MIN_PASSWORD_SCORE) {
    const advice = [result.feedback.warning, ...result.feedback.suggestions].filter(Boolean).join(' ');
    return advice ? `is too easy to guess: ${lowerFirst(advice)}` : 'is too easy to guess: add a few more words that are not common';
  }
  const withoutUsername = password.toLowerCase().split(username.toLowerCase()).join('');
  if (withoutUsername.length < password.length && rate.check(withoutUsername, SITE_WORDS).score < MIN_PASSWORD_SCORE) {
    return 'must not be built from the username: what is left without it is too easy to guess';
  }
  return null;
}
