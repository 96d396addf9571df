/**
 * Account mail in Debian's Chromium, against the real server whose delivery worker hands mail to a real SMTP server
 * started here (tests/server/helpers/smtp.ts): a player signs up with an address, opens the verification link from
 * the mail that arrived, sees the address verified on the Account page, logs out, forgets the password, opens the
 * reset link from the next mail, sets a new password, and logs in with it (the old one no longer works); then changes
 * the address on the Account page and follows the links mailed to the new address and to the old.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium, launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { notifySettings, startSmtpServer, type ReceivedMail, type TestSmtp } from '../server/helpers/smtp.ts';

const shots = path.join(import.meta.dirname, 'screenshots');
const PASSWORD = 'a long and winding road';
const NEW_PASSWORD = 'seven purple elephants juggling';

if (!hasChromium) console.warn(`\n[e2e] SKIPPED: ${CHROMIUM} is missing. Install it with: apt-get install -y chromium\n`);

describe.skipIf(!hasChromium)('account mail in the browser', () => {
  let smtp: TestSmtp;
  let server: RunningServer;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    smtp = await startSmtpServer();
    // The delivery worker's loop runs, as in production: mail reaches the SMTP server by itself.
    [server, browser] = await Promise.all([
      startServer(undefined, { notify: notifySettings({ smtpUrl: smtp.url, delivery: { enabled: true, intervalMs: 100 } }) }),
      launchBrowser(),
    ]);
    // The links in mail lead to this server, whose port is known only now.
    server.app.settings.publicUrl = server.url;
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const open = browser.browser.contexts().flatMap((c) => c.pages());
    await Promise.all(open.map((p, i) => p.screenshot({ path: path.join(shots, `failed-account-mail-${i}.png`) }).catch(() => {})));
  });

  async function newPage(): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (m) => {
      // The old password's refusal (401 at log-in) is provoked on purpose.
      const expected = m.text().includes('status of 401') && m.location().url.endsWith('/api/auth/login');
      if (m.type() === 'error' && !expected) consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    return page;
  }

  /** The next mail to `address` with this subject, once the server's worker has delivered it. */
  async function mailTo(address: string, subject: string): Promise<ReceivedMail> {
    const find = () => smtp.messages.find((mail) => mail.subject === subject && mail.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase()));
    await smtp.until(() => find() !== undefined, 30_000);
    return find()!;
  }

  /** The link in a mail's text that leads to one of the site's pages. */
  function linkTo(mail: ReceivedMail, page: string): string {
    const link = mail.text?.match(new RegExp(`${server.url.replace(/[.:/]/g, '\\$&')}${page}\\?token=[A-Za-z0-9_-]+`))?.[0];
    if (!link) throw new Error(`no link to ${page} in "${mail.subject}":\n${mail.text}`);
    return link;
  }

  test('sign up with an address, verify it from the mail, forget the password and reset it from the mail, log in with the new one', async () => {
    const page = await newPage();
    const username = `mail_${Date.now().toString(36)}`;
    const address = `${username}@example.org`;

    await page.goto(`${server.url}/signup`);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Email address').fill(address);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'The Lobby' }).waitFor();

    // The verification mail, and its link opened in the browser.
    const verification = await mailTo(address, 'Diadochi: confirm your email address');
    await page.goto(linkTo(verification, '/account/verify'));
    await page.getByText(`Your address ${address} is confirmed.`).waitFor();
    await page.screenshot({ path: path.join(shots, 'account-mail-verified.png') });

    // The Account page says so.
    await page.getByRole('link', { name: 'Your account' }).click();
    const section = page.locator('.email');
    await section.getByText(address).waitFor();
    await section.getByText('Verified', { exact: true }).waitFor();

    // Log out, and forget the password.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email address or username').fill(address);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('Check your mail.').waitFor();

    // The reset mail, its link opened, a new password set.
    const reset = await mailTo(address, 'Diadochi: reset your password');
    expect(reset.text).toContain(`your Diadochi account "${username}"`);
    await page.goto(linkTo(reset, '/account/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('New password again').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is set.').waitFor();
    await page.screenshot({ path: path.join(shots, 'account-mail-reset.png') });

    // The old password no longer works; the new one does.
    await page.getByRole('link', { name: 'Log in' }).last().click();
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Wrong username or password.').waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.who').getByText(username).waitFor();

    // The link works once: opened again, it says so.
    await page.goto(linkTo(reset, '/account/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill('another fine passphrase here');
    await page.getByLabel('New password again').fill('another fine passphrase here');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('This link has been used already').waitFor();

    // A change of address on the Account page: a link to each address, the change made once both are followed.
    const moved = `${username}.moved@example.org`;
    await page.goto(`${server.url}/account`);
    await section.getByLabel('New email address').fill(moved);
    await section.getByLabel('Your password').fill(NEW_PASSWORD);
    await section.getByRole('button', { name: 'Change address' }).click();
    await section.getByText(`We have sent a link to ${moved} and another to ${address}.`).waitFor();
    await section.getByText(`Changing to ${moved}`).waitFor();
    await page.screenshot({ path: path.join(shots, 'account-mail-change.png') });
    await page.goto(linkTo(await mailTo(moved, 'Diadochi: confirm your new email address'), '/account/verify'));
    await page.getByText('One of the two links is done.').waitFor();
    await page.goto(linkTo(await mailTo(address, 'Diadochi: confirm the change of your email address'), '/account/verify'));
    await page.getByText(`Your address is now ${moved}.`).waitFor();
    await mailTo(address, 'Diadochi: your email address was changed');
    await page.getByRole('link', { name: 'Your account' }).click();
    await section.getByText(moved).waitFor();
    await section.getByText('Verified', { exact: true }).waitFor();

    expect(consoleErrors.filter((e) => !e.includes('status of 410'))).toEqual([]);
  });
});
