// "Forgot password?" in a real browser, with the e-mail through a local SMTP sink: the sign-in screen
// links to the request form, which answers alike for any address; the e-mailed link opens the reset
// screen, which sets the new password; the new password signs in. Screenshots in
// test-output/web-app/password-reset/.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Person } from '../../helpers/platform.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { seriousA11yViolations, shot, startWebApp, type WebApp } from './harness.js';

let web: WebApp;
let sink: SmtpSink;
let ada: Person;

beforeAll(async () => {
  sink = await startSmtpSink();
  web = await startWebApp({ OVERLOOK_SMTP_URL: sink.url });
  ada = await web.tp.person('ada');
});
afterAll(async () => {
  await web?.close();
  await sink?.close();
});

it('resets a forgotten password from the e-mailed link, then signs in with it', async () => {
  const { page, errors } = await web.open(null, 'phone');
  await page.click('text=Forgot password?');
  await page.fill('#reset-email', ada.email);
  await page.click('text=Send me a reset link');
  await expect.poll(() => page.textContent('[role=status]')).toContain('If ');
  expect(await seriousA11yViolations(page)).toEqual([]);
  await shot(page, 'password-reset', '1-asked', 'phone');

  const mail = await sink.waitFor(ada.email);
  const token = /#\/reset-password\/([\w-]+)/.exec(mail.text)![1]!;
  await page.goto(`${web.url}/#/reset-password/${token}`);
  await page.fill('#new-password', 'fresh-password-42');
  await page.fill('#new-password-again', 'fresh-password-42');
  await page.click('text=Set the password');
  await expect.poll(() => page.textContent('[role=status]')).toContain('Your password is changed');
  await shot(page, 'password-reset', '2-changed', 'phone');

  // The link works once.
  await page.goto(`${web.url}/#/forgot-password`);
  await page.goto(`${web.url}/#/reset-password/${token}`);
  await page.fill('#new-password', 'another-password-42');
  await page.fill('#new-password-again', 'another-password-42');
  await page.click('text=Set the password');
  await expect.poll(() => page.textContent('.error')).toMatch(/used already or has expired/);

  await page.goto(`${web.url}/#/`);
  await page.fill('#email', ada.email);
  await page.fill('#password', 'fresh-password-42');
  await page.click('form.sign-in button[type=submit]');
  await page.waitForSelector('text=E-mail settings');
  expect(errors.filter((e) => !/\b400\b/.test(e))).toEqual([]);
});
