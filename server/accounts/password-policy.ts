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
import { createRequire } from 'node:module';
import path from 'node:path';
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

/** The packages of the word lists: loaded when needed, forgotten when idle. */
const DICTIONARY_PACKAGES = ['@zxcvbn-ts/language-common', '@zxcvbn-ts/language-en'];

export type PasswordRaterOptions = {
  /** This long without a new password, the dictionaries are let go (the next one loads them again). */
  idleMs: number;
};

/**
 * Sign-ups and password changes come in bursts (a new game's players joining); between them the server's heap is
 * better off without 20 MB. Loading them again holds the event loop up for 0.1–0.4 s, so not much sooner than this.
 */
export const PASSWORD_RATER: PasswordRaterOptions = { idleMs: 2 * 60_000 };

/**
 * zxcvbn with its dictionaries, loaded at the first new password and let go after `idleMs` without one: the word
 * lists are about 20 MB of heap, which a busy server would otherwise carry for good, marking them again at every full
 * collection (at 2,000 order submissions a second, one every few seconds). They are loaded as CommonJS and taken
 * out of the module cache at once, so that the estimator alone holds them and dropping it frees them: an ES module,
 * once imported, stays loaded for the life of the process.
 */
export class PasswordRater {
  private estimator: ZxcvbnFactory | null = null;
  private idle: NodeJS.Timeout | null = null;

  constructor(private readonly options: PasswordRaterOptions = PASSWORD_RATER) {}

  /** Whether the dictionaries are in memory. */
  get loaded(): boolean {
    return this.estimator !== null;
  }

  /** The estimator, loaded if need be; the idle clock starts again. */
  use(): ZxcvbnFactory {
    this.estimator ??= loadEstimator();
    this.idle?.refresh();
    if (!this.idle) {
      this.idle = setTimeout(() => this.unload(), this.options.idleMs);
      this.idle.unref();
    }
    return this.estimator;
  }

  /** Lets the dictionaries go: the next collection frees them. */
  unload(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.estimator = null;
  }
}

function loadEstimator(): ZxcvbnFactory {
  const load = createRequire(import.meta.url);
  const { ZxcvbnFactory: Estimator } = load('@zxcvbn-ts/core') as typeof import('@zxcvbn-ts/core');
  const [common, english] = DICTIONARY_PACKAGES.map((name) => load(name));
  const estimator = new Estimator({
    dictionary: { ...common.dictionary, ...english.dictionary },
    graphs: common.adjacencyGraphs,
    translations: english.translations,
    maxLength: RATED_LENGTH,
    // The l33t matcher's worst case grows with the substitutions it tries; 10 rates every l33t password we tried as 100 does.
    l33tMaxSubstitutions: 10,
  });
  for (const file of Object.keys(load.cache)) {
    if (DICTIONARY_PACKAGES.some((name) => file.includes(path.join('node_modules', name, path.sep)))) delete load.cache[file];
  }
  return estimator;
}

const rater = new PasswordRater();

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/**
 * Why `password` may not be `username`'s new password, as the end of a validation message ("is too easy to guess:
 * this is a heavily used password. Add more words that are less common."), or null when it may.
 */
export async function passwordWeakness(password: string, username: string, using: PasswordRater = rater): Promise<string | null> {
  const rate = using.use();
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
