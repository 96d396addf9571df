/**
 * Account mail through a real SMTP server (tests/server/helpers/smtp.ts): the mails are written to the outbox with
 * the change that causes them, delivered by the app's own worker, parsed as they arrive, and their links followed as
 * the pages they open do (the token from the link, posted to the API). Sign-up with an address and its
 * verification; password reset, which never tells whether an address exists, works once and ends the sessions; a
 * change of address made only once both links are followed.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { Browser, PASSWORD, startSiblingApp, startTestApp, uniqueName, type TestApp } from './helpers/app.ts';
import { notifySettings, startSmtpServer, type ReceivedMail, type TestSmtp } from './helpers/smtp.ts';

vi.setConfig({ testTimeout: 60_000 });

const PUBLIC_URL = 'http://diadochi.example:8080';
const NEW_PASSWORD = 'seven purple elephants juggling';

let smtp: TestSmtp;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  smtp = await startSmtpServer();
  testApp = await startTestApp({ settings: { publicUrl: PUBLIC_URL, notify: notifySettings({ smtpUrl: smtp.url }) } });
  app = testApp.app;
}, 60_000);
afterAll(async () => {
  await testApp?.close();
  await smtp?.close();
}, 60_000);

const addressFor = (name: string) => `${name}@Mail.Example.org`;

/** Mails that reached the SMTP server for this address (whatever its case). */
const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.envelope.to.some((to) => to.toLowerCase() === address.toLowerCase()));

/** Runs the delivery worker until `count` mails have reached `address`; returns them, oldest first. */
async function received(address: string, count = 1): Promise<ReceivedMail[]> {
  await vi.waitFor(
    async () => {
      await app.notify.worker.deliverDue();
      expect(mailsTo(address).length).toBeGreaterThanOrEqual(count);
    },
    { timeout: 20_000, interval: 100 },
  );
  return mailsTo(address);
}

/** The one link to a page of the site in a mail, checked to be the same in its text and HTML. */
function linkIn(mail: ReceivedMail, page: string): URL {
  const pattern = new RegExp(`${PUBLIC_URL.replace(/[.:/]/g, '\\$&')}${page}\\?token=[A-Za-z0-9_-]+`, 'g');
  const inText = mail.text?.match(pattern) ?? [];
  expect(inText, `a link to ${page} in the text of "${mail.subject}"`).toHaveLength(1);
  expect(mail.html || '', 'the same link in the HTML').toContain(`href="${inText[0]}"`);
  return new URL(inText[0]!);
}

/** Follows a link from a mail as its page does: the token from the link, posted to the API. */
async function follow(link: URL, api: string, body: Record<string, unknown> = {}) {
  expect(link.origin).toBe(PUBLIC_URL);
  return app.inject({ method: 'POST', url: api, payload: { token: link.searchParams.get('token'), ...body } });
}

/** A new account, with an address (by default one made from the name) or none (null). */
async function signUp(name = uniqueName(), email: string | null = addressFor(name)) {
  const browser = new Browser(app);
  const response = await browser.request('POST', '/api/auth/register', { username: name, password: PASSWORD, ...(email ? { email } : {}) });
  expect(response.statusCode, response.body).toBe(201);
  browser.csrfToken = response.json().csrfToken;
  browser.user = response.json().user;
  return { browser, name, email };
}

/** A user whose address is verified, through the mail's link. */
async function verifiedUser() {
  const user = await signUp();
  const [mail] = await received(user.email!);
  expect((await follow(linkIn(mail, '/account/verify'), '/api/auth/email/verify')).statusCode).toBe(200);
  return user;
}

const status = async (browser: Browser) => (await browser.request('GET', '/api/auth/email')).json();
const askReset = (body: Record<string, unknown>) => app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: body });

describe('an address at sign-up', () => {
  test('the verification mail arrives, says why it was sent, and its link verifies the address once', async () => {
    const { browser, name, email } = await signUp();
    expect(await status(browser)).toMatchObject({ email, verifiedAt: null, pendingChange: null });
    const [mail] = await received(email!);
    expect(mail.subject).toBe('Diadochi: confirm your email address');
    expect((mail.to && !Array.isArray(mail.to) ? mail.to.text : '').toLowerCase()).toContain(email!.toLowerCase());
    expect(mail.text).toContain(`You get this mail because this address was given for the Diadochi account "${name}"`);
    expect(mail.html).toContain('You get this mail because');
    const link = linkIn(mail, '/account/verify');

    const followed = await follow(link, '/api/auth/email/verify');
    expect(followed.statusCode, followed.body).toBe(200);
    expect(followed.json()).toEqual({ outcome: 'verified', email, waitingFor: null });
    const after = await status(browser);
    expect(after.email).toBe(email);
    expect(Date.parse(after.verifiedAt)).toBeGreaterThan(Date.now() - 60_000);

    const again = await follow(link, '/api/auth/email/verify');
    expect(again.statusCode).toBe(410);
    expect(again.json().error.code).toBe('token_used');
  });

  test('sign-up without an address works as before and sends nothing', async () => {
    const before = smtp.messages.length;
    const { browser } = await signUp(uniqueName(), null);
    expect(await status(browser)).toEqual({ email: null, verifiedAt: null, undeliverableAt: null, undeliverableReason: null, pendingChange: null });
    await app.notify.worker.deliverDue();
    expect(smtp.messages.length).toBe(before);
    const resend = await browser.request('POST', '/api/auth/email/verification');
    expect(resend.statusCode).toBe(409);
    expect(resend.json().error.code).toBe('email_missing');
  });

  test('an address another account has, in any case, is a 409; a malformed one a 400 naming the field; neither creates the account', async () => {
    const { email } = await signUp();
    const name = uniqueName();
    const taken = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: name, password: PASSWORD, email: email!.toUpperCase() } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({ code: 'email_taken' });
    for (const bad of ['not an address', 'a@b', 'a@@example.org', `${'x'.repeat(65)}@example.org`, `a@${'x'.repeat(250)}.org`]) {
      const response = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username: name, password: PASSWORD, email: bad } });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().error.issues[0].path, bad).toBe('body.email');
    }
    expect(await app.prisma.user.findUnique({ where: { usernameKey: name.toLowerCase() } })).toBeNull();
  });

  test('the verification can be mailed again, a few times an hour; the earlier link still works', async () => {
    const { browser, email } = await signUp();
    const [first] = await received(email!);
    const resent = await browser.request('POST', '/api/auth/email/verification');
    expect(resent.statusCode, resent.body).toBe(202);
    const mails = await received(email!, 2);
    expect(linkIn(mails[1], '/account/verify').href).not.toBe(linkIn(first, '/account/verify').href);
    // Five an hour: the sign-up's and four more.
    for (let i = 0; i < 3; i++) expect((await browser.request('POST', '/api/auth/email/verification')).statusCode).toBe(202);
    const refused = await browser.request('POST', '/api/auth/email/verification');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);

    expect((await follow(linkIn(first, '/account/verify'), '/api/auth/email/verify')).statusCode).toBe(200);
    const done = await browser.request('POST', '/api/auth/email/verification');
    expect(done.statusCode).toBe(409);
    expect(done.json().error.code).toBe('email_already_verified');
  });

  test('links that are not tokens, or no token at all, are refused clearly', async () => {
    const unknown = await app.inject({ method: 'POST', url: '/api/auth/email/verify', payload: { token: 'A'.repeat(43) } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('token_invalid');
    const garbled = await app.inject({ method: 'POST', url: '/api/auth/email/verify', payload: { token: 'not a token!' } });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().error.message).toContain('body.token');
  });
});

describe('password reset', () => {
  test('answers the same for an unknown address or username and a known one, and mails only a verified address', async () => {
    const verified = await verifiedUser();
    const unverified = await signUp();
    await received(unverified.email!);
    const noAddress = await signUp(uniqueName(), null);
    const since = new Date();
    const before = smtp.messages.length;

    const answers = [
      await askReset({ email: addressFor(uniqueName('nobody')) }),
      await askReset({ username: uniqueName('nobody') }),
      await askReset({ email: unverified.email }),
      await askReset({ username: noAddress.name }),
      await askReset({ email: verified.email!.toUpperCase() }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(202);
      expect(answer.body).toBe(answers[0].body);
      expect(answer.headers['content-length']).toBe(answers[0].headers['content-length']);
    }
    const [, reset] = await received(verified.email!, 2);
    expect(reset.subject).toBe('Diadochi: reset your password');
    expect(reset.text).toContain('You get this mail because a password reset was asked');
    linkIn(reset, '/account/reset-password');
    // By username, the link goes to the account's verified address.
    expect((await askReset({ username: verified.name.toUpperCase() })).statusCode).toBe(202);
    await received(verified.email!, 3);
    await app.notify.worker.deliverDue();
    expect(smtp.messages.length - before).toBe(2);
    const written = await app.prisma.outboxMessage.findMany({ where: { createdAt: { gte: since } } });
    expect(written.map((row) => row.target.toLowerCase())).toEqual([verified.email!.toLowerCase(), verified.email!.toLowerCase()]);
  });

  test('the link sets a new password once, ends every browser session and the other links, and keeps API tokens', async () => {
    const { browser, name, email } = await verifiedUser();
    const elsewhere = new Browser(app);
    expect((await elsewhere.login(name)).statusCode).toBe(200);
    const token = (await browser.request('POST', '/api/auth/tokens', { name: 'bot' })).json().token;

    // One after the other: the second replaces the first.
    await askReset({ email });
    await received(email!, 2);
    await askReset({ username: name });
    const mails = await received(email!, 3);
    const [older, newest] = mails.slice(1).map((mail) => linkIn(mail, '/account/reset-password'));

    const replaced = await follow(older, '/api/auth/password-reset/confirm', { newPassword: NEW_PASSWORD });
    expect(replaced.statusCode).toBe(400);
    expect(replaced.json().error.code).toBe('token_invalid');

    const weak = await follow(newest, '/api/auth/password-reset/confirm', { newPassword: 'password1' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error.issues[0].path).toBe('body.newPassword');

    const done = await follow(newest, '/api/auth/password-reset/confirm', { newPassword: NEW_PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ username: name, sessionsEnded: 2 });

    for (const session of [browser, elsewhere]) expect((await session.request('GET', '/api/auth/me')).json().user).toBeNull();
    const bot = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect(bot.json().user.username).toBe(name);
    expect((await new Browser(app).login(name, PASSWORD)).statusCode).toBe(401);
    expect((await new Browser(app).login(name, NEW_PASSWORD)).statusCode).toBe(200);

    const twice = await follow(newest, '/api/auth/password-reset/confirm', { newPassword: 'another fine passphrase here' });
    expect(twice.statusCode).toBe(410);
    expect(twice.json().error.code).toBe('token_used');
    expect((await new Browser(app).login(name, NEW_PASSWORD)).statusCode).toBe(200);
  });

  test('two uses of one link at once: one sets the password, the other is told the link was used', async () => {
    const { name, email } = await verifiedUser();
    await askReset({ email });
    const [, mail] = await received(email!, 2);
    const link = linkIn(mail, '/account/reset-password');
    const answers = await Promise.all([
      follow(link, '/api/auth/password-reset/confirm', { newPassword: NEW_PASSWORD }),
      follow(link, '/api/auth/password-reset/confirm', { newPassword: 'another fine passphrase here' }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 410]);
    const winner = answers[0].statusCode === 200 ? NEW_PASSWORD : 'another fine passphrase here';
    expect((await new Browser(app).login(name, winner)).statusCode).toBe(200);
  });

  test('an expired link is refused and changes nothing', async () => {
    const { name, email } = await verifiedUser();
    await askReset({ email });
    const [, mail] = await received(email!, 2);
    const link = linkIn(mail, '/account/reset-password');
    await app.prisma.accountToken.updateMany({ where: { email: email!, purpose: 'reset_password' }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await follow(link, '/api/auth/password-reset/confirm', { newPassword: NEW_PASSWORD });
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.code).toBe('token_expired');
    expect((await new Browser(app).login(name, PASSWORD)).statusCode).toBe(200);
  });

  test('a link is good for an hour, and stored only as its SHA-256', async () => {
    const { email } = await verifiedUser();
    await askReset({ email });
    const [, mail] = await received(email!, 2);
    const token = linkIn(mail, '/account/reset-password').searchParams.get('token')!;
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    const rows = await app.prisma.accountToken.findMany({ where: { email: email!, purpose: 'reset_password' } });
    expect(rows).toHaveLength(1);
    const { createHash } = await import('node:crypto');
    expect(rows[0].tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].expiresAt.getTime() - rows[0].createdAt.getTime()).toBe(3600_000);
  });

  test('is limited per address typed, the same whether or not it exists; and per client address', async () => {
    const { email } = await verifiedUser();
    const unknown = addressFor(uniqueName('nobody'));
    for (const address of [email!, unknown]) {
      for (let i = 0; i < 5; i++) expect((await askReset({ email: address })).statusCode).toBe(202);
      const refused = await askReset({ email: address.toLowerCase() });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('rate_limited');
    }
    const strict = await startSiblingApp(app, { settings: { authRateLimit: { max: 2, windowMs: 60_000 } } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push((await strict.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email: addressFor(uniqueName()) } })).statusCode);
      expect(statuses).toEqual([202, 202, 429]);
    } finally {
      await strict.close();
    }
  });

  test('a request that names neither or both is a 400', async () => {
    for (const body of [{}, { email: 'a@example.org', username: 'someone' }]) {
      const response = await askReset(body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toContain('either your email address or your username');
    }
  });
});

describe('change of address', () => {
  test('with a verified address: made only once the links sent to both addresses are followed; the old one is told', async () => {
    const { browser, name, email: oldEmail } = await verifiedUser();
    const newEmail = addressFor(uniqueName('moved'));
    const wrong = await browser.request('PUT', '/api/auth/email', { email: newEmail, currentPassword: 'not my password' });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error.code).toBe('wrong_password');

    const asked = await browser.request('PUT', '/api/auth/email', { email: newEmail, currentPassword: PASSWORD });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json()).toMatchObject({ email: oldEmail, pendingChange: { newEmail, oldConfirmed: false, newConfirmed: false } });

    const [toNew] = await received(newEmail);
    const [, toOld] = await received(oldEmail!, 2);
    expect(toNew.subject).toBe('Diadochi: confirm your new email address');
    expect(toOld.subject).toBe('Diadochi: confirm the change of your email address');
    expect(toOld.text).toContain(newEmail);
    expect(toOld.text).toContain('If it was not you, do not follow the link');

    const first = await follow(linkIn(toNew, '/account/verify'), '/api/auth/email/verify');
    expect(first.json()).toEqual({ outcome: 'change-pending', email: newEmail, waitingFor: 'old' });
    expect(await status(browser)).toMatchObject({ email: oldEmail, pendingChange: { newEmail, oldConfirmed: false, newConfirmed: true } });
    // Meanwhile the account is still reached at the old address.
    await askReset({ email: newEmail });
    await askReset({ email: oldEmail });
    const [, , reset] = await received(oldEmail!, 3);
    expect(reset.subject).toBe('Diadochi: reset your password');

    const second = await follow(linkIn(toOld, '/account/verify'), '/api/auth/email/verify');
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toEqual({ outcome: 'changed', email: newEmail, waitingFor: null });
    const after = await status(browser);
    expect(after).toMatchObject({ email: newEmail, pendingChange: null });
    expect(after.verifiedAt).not.toBeNull();

    const [, , , told] = await received(oldEmail!, 4);
    expect(told.subject).toBe('Diadochi: your email address was changed');
    expect(told.text).toContain(`is now ${newEmail}`);
    expect(told.text).toContain(`${PUBLIC_URL}/account/forgot-password`);
    // The reset link mailed to the old address no longer speaks for the account.
    const stale = await follow(linkIn(reset, '/account/reset-password'), '/api/auth/password-reset/confirm', { newPassword: NEW_PASSWORD });
    expect(stale.statusCode).toBe(400);
    // And the account is now reached at the new one.
    await askReset({ username: name });
    const [, reset2] = await received(newEmail, 2);
    expect(reset2.subject).toBe('Diadochi: reset your password');
  });

  test('either order works; a second request replaces the first, whose links stop working', async () => {
    const { browser, email: oldEmail } = await verifiedUser();
    const abandoned = addressFor(uniqueName('abandoned'));
    const chosen = addressFor(uniqueName('chosen'));
    expect((await browser.request('PUT', '/api/auth/email', { email: abandoned, currentPassword: PASSWORD })).statusCode).toBe(202);
    const [abandonedMail] = await received(abandoned);
    await received(oldEmail!, 2);
    expect((await browser.request('PUT', '/api/auth/email', { email: chosen, currentPassword: PASSWORD })).statusCode).toBe(202);
    const [toChosen] = await received(chosen);
    const toOld = (await received(oldEmail!, 3))[2];
    expect(toOld.text).toContain(chosen);

    const stale = await follow(linkIn(abandonedMail, '/account/verify'), '/api/auth/email/verify');
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error.code).toBe('token_invalid');
    expect((await follow(linkIn(toOld, '/account/verify'), '/api/auth/email/verify')).json()).toMatchObject({ outcome: 'change-pending', waitingFor: 'new' });
    expect((await follow(linkIn(toChosen, '/account/verify'), '/api/auth/email/verify')).json()).toMatchObject({ outcome: 'changed', email: chosen });
    expect((await status(browser)).email).toBe(chosen);
  });

  test('giving the present address again calls off a change under way, whose links then stop working', async () => {
    const { browser, email } = await verifiedUser();
    const other = addressFor(uniqueName('other'));
    expect((await browser.request('PUT', '/api/auth/email', { email: other, currentPassword: PASSWORD })).statusCode).toBe(202);
    const [toOther] = await received(other);
    const off = await browser.request('PUT', '/api/auth/email', { email, currentPassword: PASSWORD });
    expect(off.statusCode).toBe(202);
    expect(off.json()).toMatchObject({ email, pendingChange: null });
    expect((await follow(linkIn(toOther, '/account/verify'), '/api/auth/email/verify')).json().error.code).toBe('token_invalid');
    expect((await status(browser)).email).toBe(email);
  });

  test('without a verified address the new one is set at once and verified by its own link; a taken one is a 409', async () => {
    const { browser, email: first } = await signUp();
    const other = await signUp();
    const second = addressFor(uniqueName('second'));
    const taken = await browser.request('PUT', '/api/auth/email', { email: other.email!.toUpperCase(), currentPassword: PASSWORD });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('email_taken');

    const set = await browser.request('PUT', '/api/auth/email', { email: second, currentPassword: PASSWORD });
    expect(set.statusCode).toBe(202);
    expect(set.json()).toMatchObject({ email: second, verifiedAt: null, pendingChange: null });
    const [firstMail] = await received(first!);
    const [secondMail] = await received(second);
    expect(secondMail.subject).toBe('Diadochi: confirm your email address');
    // The first address's link verified nothing the account still has.
    expect((await follow(linkIn(firstMail, '/account/verify'), '/api/auth/email/verify')).statusCode).toBe(400);
    expect((await follow(linkIn(secondMail, '/account/verify'), '/api/auth/email/verify')).json()).toMatchObject({ outcome: 'verified', email: second });
    const again = await browser.request('PUT', '/api/auth/email', { email: second.toUpperCase(), currentPassword: PASSWORD });
    expect(again.statusCode).toBe(400);
    expect(again.json().error.message).toBe('body.email: is your address already');
  });

  test('an address the mail server refuses is shown undeliverable; giving it again clears the mark and verifies it anew', async () => {
    const name = uniqueName();
    const email = addressFor(name);
    smtp.refuseRecipient(email);
    const { browser } = await signUp(name, email);
    await vi.waitFor(
      async () => {
        await app.notify.worker.deliverDue();
        expect((await status(browser)).undeliverableAt).not.toBeNull();
      },
      { timeout: 20_000, interval: 100 },
    );
    expect((await status(browser)).undeliverableReason).toContain('550');
    // Nothing more is sent to it: not the link again, nor a reset link.
    expect((await browser.request('POST', '/api/auth/email/verification')).statusCode).toBe(409);

    smtp.behaviour.recipients.delete(email.toLowerCase());
    const again = await browser.request('PUT', '/api/auth/email', { email, currentPassword: PASSWORD });
    expect(again.statusCode).toBe(202);
    expect(again.json()).toMatchObject({ email, verifiedAt: null, undeliverableAt: null, undeliverableReason: null });
    const [mail] = await received(email);
    expect(mail.subject).toBe('Diadochi: confirm your email address');
    expect((await follow(linkIn(mail, '/account/verify'), '/api/auth/email/verify')).json()).toMatchObject({ outcome: 'verified', email });
  });

  test('an API token can read the address but not change it', async () => {
    const { browser, email } = await verifiedUser();
    const token = (await browser.request('POST', '/api/auth/tokens', { name: 'bot' })).json().token;
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.inject({ method: 'GET', url: '/api/auth/email', headers })).json().email).toBe(email);
    const change = await app.inject({
      method: 'PUT',
      url: '/api/auth/email',
      headers,
      payload: { email: addressFor(uniqueName()), currentPassword: PASSWORD },
    });
    expect(change.statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/auth/email' })).statusCode).toBe(401);
  });
});
